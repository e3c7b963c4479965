/**
 * Settings every database session of Podium runs with, on both drivers.
 *
 * `synchronize_seqscans = off` (issue 32 item 3): a search for a word that most decks hold takes
 * its first 1,001 hits by reading the table in order until it has them (the planner's choice,
 * cheaper than reading the word's whole posting list from the GIN index). PostgreSQL lets a
 * sequential scan of a large table start where the last one stopped, which would give the same
 * search different hits, totals and pages from one request to the next; off, every scan starts
 * at the table's first block, as the index scan's hits come in the table's order too.
 */
export const SESSION_SETTINGS: Readonly<Record<string, string>> = { synchronize_seqscans: "off" };

/** The settings as SET statements, for a session already open (PGlite). */
export const sessionSettingsSql = (): string =>
  Object.entries(SESSION_SETTINGS)
    .map(([name, value]) => `set ${name} = ${value};`)
    .join(" ");

/** The settings as a connection's startup options (node-postgres `options`). */
export const sessionStartupOptions = (): string =>
  Object.entries(SESSION_SETTINGS)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(" ");
