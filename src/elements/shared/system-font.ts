/**
 * A page that sets no font leaves the browser's default serif (Times): the elements then use the
 * system's UI font (the `system-font` custom state). A page font, or `--consult-font-family`, is
 * always kept.
 */
export function useSystemFontIfPageHasNone(host: HTMLElement, internals: ElementInternals): void {
  const states = internals.states as Set<string> | undefined;
  if (!states) return;
  states.delete('system-font');
  if (/^(?:"?times(?: new roman)?"?|serif)$/i.test(getComputedStyle(host).fontFamily.trim()))
    states.add('system-font');
}
