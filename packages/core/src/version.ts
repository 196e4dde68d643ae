/** The service's name and version, as the CLI's `--version` and the MCP server's info give them. */
export const SERVICE_INFO = { name: 'shortener', version: '0.1.0' } as const;
