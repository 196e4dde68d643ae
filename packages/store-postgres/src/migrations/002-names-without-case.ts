/**
 * Account names unique without regard to case (decisions §14): `alice`, `Alice` and `ALICE` are one
 * name. Names are ASCII, so `lower()` compares them as the core does. A schema where names differ only
 * in case is refused with every such group named; the operator renames all but one of each with SQL.
 */
export const NAMES_WITHOUT_CASE = `
DO $$
DECLARE clashes TEXT;
BEGIN
  SELECT string_agg(names, '; ') INTO clashes FROM (
    SELECT string_agg(name || ' (' || id || ')', ', ' ORDER BY name) AS names
    FROM accounts GROUP BY lower(name) HAVING count(*) > 1 ORDER BY lower(name)
  ) AS groups;
  IF clashes IS NOT NULL THEN
    RAISE EXCEPTION 'Account names are now unique without regard to case, and these accounts share a name: %. Rename all but one of each (UPDATE accounts SET name = ''…'' WHERE id = ''…''), then start again. Nothing was changed.', clashes;
  END IF;
END $$;
CREATE UNIQUE INDEX accounts_name_lower ON accounts (lower(name));
`;
