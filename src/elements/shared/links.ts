/**
 * Addresses shown to members: only `https:` links are followed, and what a link or a file name
 * says cannot be turned around by Unicode bidirectional controls (`report`, U+202E, `fdp.exe` posing
 * as `reportexe.pdf`).
 */

/** U+202A–U+202E (embeddings and overrides) and U+2066–U+2069 (isolates). */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** `text` without bidirectional controls, so it reads in the order it is stored. */
export const withoutBidiControls = (text: string): string => text.replace(BIDI_CONTROLS, '');

/** `raw` as a URL when it is an absolute `https:` address; nothing else is linked. */
export function httpsUrl(raw: string | undefined): URL | undefined {
  if (!raw) return undefined;
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The host a member would recognise: `www.nhs.uk`, with an internationalised name as Unicode. */
export const hostOf = (url: URL): string => withoutBidiControls(url.hostname);

/** The last segment of an attachment's path, decoded and safe to show; its host when it has none. */
export function fileName(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).at(-1);
  if (!last) return hostOf(url);
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // A malformed escape: show the segment as it is.
  }
  return withoutBidiControls(name);
}
