/**
 * The docs pages that explain setup show the README's own sections, so Storybook and the README
 * never say different things. A section runs from its heading to the next heading of its level
 * or above; a missing heading is an error, not an empty page.
 */
export function readmeSection(readme: string, heading: string, until?: string): string {
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README.md has no "${heading}"`);
  const level = /^#+/.exec(heading)?.[0] ?? '##';
  const next = new RegExp(`\\n#{1,${level.length}} `, 'g');
  next.lastIndex = start + heading.length + 1;
  const end = until ? readme.indexOf(until, start) : (next.exec(readme)?.index ?? readme.length);
  if (end < 0) throw new Error(`README.md has no "${until}" after "${heading}"`);
  return readme.slice(start + 1, end).trim();
}

/** From the first line that starts with `from` up to (not including) the first that starts with `to`. */
export function readmePassage(readme: string, from: string, to: string): string {
  const start = readme.indexOf(`\n${from}`);
  const end = readme.indexOf(`\n${to}`, start + 1);
  if (start < 0 || end < 0) throw new Error(`README.md has no passage from "${from}" to "${to}"`);
  return readme.slice(start + 1, end).trim();
}
