/** The package version, written from package.json by scripts/write-version.mjs. */
export const VERSION = '0.1.0';
