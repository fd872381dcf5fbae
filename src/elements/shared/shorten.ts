/**
 * Text cut to a length a screen reader reads at a glance: a row's description, a thread's
 * heading. Cut at a word where there is one, with an ellipsis.
 */
export function shorten(text: string, max: number): string {
  const folded = text.replace(/\s+/g, ' ').trim();
  if (folded.length <= max) return folded;
  const cut = folded.slice(0, max - 1);
  const atWord = cut.lastIndexOf(' ');
  return `${(atWord > max / 2 ? cut.slice(0, atWord) : cut).replace(/[\s,.;:!?]+$/, '')}…`;
}
