/**
 * The limit for a vitest test whose own work takes seconds on a quiet machine (hundreds of
 * thousands of characters, a thousand log lines appended one by one, a property's runs): the
 * 20 s of vitest.config.ts holds the rest, but on a 2-core machine with other suites or busy
 * loops beside it these ran past 20 s (150 s seen with the machine some twenty times over-
 * subscribed). They wait on nothing; only the machine's speed sets how long they run.
 */
export const LOADED_MACHINE_TIMEOUT_MS = 180_000
