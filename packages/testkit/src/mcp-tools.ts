/** The MCP tools a server lists, sorted (decisions §8, §13, §18 and §23): what every MCP transport's test expects. */
export const MCP_TOOLS: readonly string[] = [
  'check_alias',
  'check_link',
  'delete_link',
  'get_link_info',
  'link_stats',
  'list_links',
  'qr_code',
  'shorten_url',
  'tag_stats',
  'update_link',
];
