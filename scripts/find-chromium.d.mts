/** CHROME_PATH, or the first Chromium or Chrome on the PATH; throws with what to install when there is none. */
export function findChromium(): string;
/** Flags for a headless Chromium on CI machines, root included. */
export const CHROMIUM_ARGS: string[];
