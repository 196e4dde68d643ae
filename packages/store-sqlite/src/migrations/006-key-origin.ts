/** How each API key was made (decisions §14: settings list it); keys made before say `unknown`. */
export const KEY_ORIGIN = `
ALTER TABLE api_keys ADD COLUMN created_via TEXT NOT NULL DEFAULT 'unknown';
`;
