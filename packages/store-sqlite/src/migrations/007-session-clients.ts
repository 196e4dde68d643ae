/** What signed in, per session (its device class and browser family, never the address; issue 26). */
export const SESSION_CLIENTS = `
ALTER TABLE sessions ADD COLUMN device TEXT;
ALTER TABLE sessions ADD COLUMN browser TEXT;
`;
