/**
 * The page's sequential round trips so far, counted in the page from its own Resource Timing, so
 * in one clock and whatever the network: the HTML is the first; every other file is one more than
 * the latest of those that had arrived before it was asked for. The HTML counts as arrived at its
 * first byte (the parser reads it as it comes), any other file at its last. So a page whose HTML
 * names a loader that asks for chunks takes 3 (HTML → loader → chunks), a page whose HTML names
 * one bundle takes 2. Only the page's own files count: calls to an API (fetch, XHR, beacons, and
 * the event stream, which Resource Timing calls `other`) are not its code, and a request to
 * another origin (deep-chat asks Google Fonts for a stylesheet once it renders) is not needed to
 * type. A file still on its way is not counted, since Resource Timing lists only what has arrived.
 *
 * Plain JavaScript, to run in the page as it is (`page.evaluate(ROUND_TRIPS_IN_PAGE)`, or inside an
 * init script): an expression whose value is a `RoundTrips`.
 */
const roundTripsInPage = (api: readonly string[]) => `(() => {
  const api = new Set(${JSON.stringify(api)});
  const [html] = performance.getEntriesByType('navigation');
  const files = [{ path: location.pathname, asked: 0, arrived: html ? html.responseStart : 0, wave: 1 }];
  for (const entry of performance.getEntriesByType('resource')) {
    const url = new URL(entry.name);
    if (api.has(entry.initiatorType) || url.origin !== location.origin) continue;
    files.push({ path: url.pathname, asked: entry.startTime, arrived: entry.responseEnd, wave: 0 });
  }
  files.sort((a, b) => a.asked - b.asked);
  for (const file of files) {
    if (file.wave) continue;
    file.wave = 1 + Math.max(0, ...files.filter((other) => other !== file && other.wave && other.arrived <= file.asked).map((other) => other.wave));
  }
  return {
    roundTrips: Math.max(...files.map((file) => file.wave)),
    files: files.map(({ path, wave }) => ({ path, wave })),
  };
})()`;

export const ROUND_TRIPS_IN_PAGE = roundTripsInPage(['fetch', 'xmlhttprequest', 'beacon', 'other']);

/**
 * The same with the page's calls to its own API counted too (sign-in, the first read): what a
 * member waits for before an answer is on the screen. An event stream still open is not counted.
 */
export const ROUND_TRIPS_WITH_API_IN_PAGE = roundTripsInPage([]);

export interface RoundTrips {
  roundTrips: number;
  files: { path: string; wave: number }[];
}
