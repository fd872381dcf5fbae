/**
 * The one HTML sink of the codebase (docs/security.md S11, S12): markdown from professionals and the
 * navigator is rendered by marked, sanitized by DOMPurify into a DOM fragment, and that fragment is
 * put into the page as it is. No HTML string is ever assigned anywhere. Both libraries load on
 * first use, so an element's first paint does not wait for them; until then the text shows as
 * plain text.
 *
 * Raw HTML in an answer never reaches an HTML parser: marked's renderer shows it as the text it is,
 * so nothing the page's Content Security Policy forbids is ever parsed and no violation is
 * reported (S13). DOMPurify stays as the last line. What marked itself would emit that the policy
 * leaves out is shown as text instead of vanishing: an image becomes its alt text with a note, a
 * link that is not `https:`, `mailto:` or `tel:` becomes its words and its address. A link whose
 * words are not its address shows the host it goes to.
 *
 * Policy: a small set of text tags; links only to https, mailto and tel, opening in a new tab
 * with rel="noopener noreferrer"; no style attributes, forms, frames, SVG, MathML or images.
 */
import { noChange } from 'lit';
import { AsyncDirective, directive } from 'lit/async-directive.js';
import { hostOf, httpsUrl, withoutBidiControls } from './links.js';
import { translate } from './localize.js';
import { loadMarkdownLibraries } from './markdown-libraries.js';
import { whenIdle } from './when-idle.js';

const ALLOWED_TAGS = [
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'del',
  's',
  'ul',
  'ol',
  'li',
  'a',
  'code',
  'pre',
  'blockquote',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
];
const ALLOWED_ATTR = ['href', 'title', 'start'];
const ALLOWED_URI_REGEXP = /^(?:https:|mailto:|tel:)/i;

/** Words the renderer adds, in the language of the element that shows the answer. */
interface Labels {
  /** Stands in for an image that was not loaded, before its alt text. */
  imageOmitted: string;
}

const labelsFor = (language: string): Labels => ({
  imageOmitted: translate(language, 'answer', 'imageOmitted'),
});

type Render = (markdown: string, language?: string) => DocumentFragment;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

let loading: Promise<Render> | undefined;
let ready: Render | undefined;

async function load(): Promise<Render> {
  const { Marked, createDOMPurify, trustedTypesPolicy } = await loadMarkdownLibraries();
  // Own instances, so a partner's page-wide marked or DOMPurify settings are neither used nor changed.
  let labels = labelsFor('en');
  const marked = new Marked({
    gfm: true,
    breaks: true,
    async: false,
    walkTokens(token) {
      // The element sits inside the partner's page: its headings start below the page's own.
      if (token.type === 'heading') token.depth = Math.min(6, Math.max(3, token.depth + 2));
    },
    renderer: {
      html: ({ text, block }) =>
        block ? `<p>${escapeHtml(text.trim()).replace(/\n/g, '<br>')}</p>` : escapeHtml(text),
      image: ({ text }) => {
        const alt = withoutBidiControls(text).trim();
        return `<em>${escapeHtml(alt ? `${labels.imageOmitted}: ${alt}` : labels.imageOmitted)}</em>`;
      },
      link({ href, title, tokens, text }) {
        const words = withoutBidiControls(this.parser.parseInline(tokens));
        const shown = withoutBidiControls(text).trim();
        if (!ALLOWED_URI_REGEXP.test(href)) {
          // Not followed: the words, and the address they pointed at, as text.
          const address = withoutBidiControls(href);
          return shown === address || shown === address.replace(/^https?:\/\//, '')
            ? escapeHtml(shown)
            : `${words} (${escapeHtml(address)})`;
        }
        const url = httpsUrl(href);
        const host = url && hostOf(url);
        const differs = url !== undefined && ![href, url.href, host].includes(shown);
        const titled = title ? ` title="${escapeHtml(title)}"` : '';
        return `<a href="${escapeHtml(href)}"${titled}>${words}</a>${differs && host ? ` (${escapeHtml(host)})` : ''}`;
      },
    },
  });
  const purify = createDOMPurify(window);
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  return (markdown: string, language = 'en') => {
    made = true;
    labels = labelsFor(language);
    const fragment = purify.sanitize(marked.parse(markdown, { async: false }), {
      ALLOWED_TAGS,
      ALLOWED_ATTR,
      ALLOWED_URI_REGEXP,
      // `start` is not a URI: without this DOMPurify tests it against the URI pattern and drops it.
      ADD_URI_SAFE_ATTR: ['start'],
      ALLOW_DATA_ATTR: false,
      ALLOW_ARIA_ATTR: false,
      RETURN_DOM_FRAGMENT: true,
      ...(trustedTypesPolicy && { TRUSTED_TYPES_POLICY: trustedTypesPolicy }),
    });
    // Code and tables scroll inside the answer; a keyboard must be able to scroll them too.
    for (const scroller of fragment.querySelectorAll<HTMLElement>('pre, table')) scroller.tabIndex = 0;
    return fragment;
  };
}

/** Starts loading the renderer, for elements that know they will need it soon. */
export function preloadMarkdown(): Promise<Render> {
  loading ??= load().then((render) => (ready = render));
  return loading;
}

/** What answers most often hold, made once at idle (see {@link prefetchMarkdownWhenIdle}). */
const WARM_UP = '### a\n\n**b** *c* `d` [e](https://example.org)\nf\n\n- g\n\n1. h\n\n> i';

let prefetching = false;
/** Whether the renderer has made anything in this page yet. */
let made = false;

/**
 * Starts loading the renderer once the page is idle: after the first wave of the elements' code,
 * never in its way. An answer to show before then loads it at once. Once it is here, and still
 * at idle, it makes one answer of its own: the first a page makes costs several times the next
 * (the libraries' regular expressions are compiled as they are first used, their functions as
 * they are first called), so an answer that arrives while the member waits shows that much sooner.
 */
export function prefetchMarkdownWhenIdle(): void {
  if (prefetching) return;
  prefetching = true;
  whenIdle(
    () =>
      void preloadMarkdown()
        .then((render) =>
          whenIdle(() => {
            try {
              if (!made) render(WARM_UP);
            } catch {
              // Readying only: an answer shown later says what fails, where the member sees it.
            }
          }),
        )
        .catch(() => undefined),
  );
}

/** Markdown as a sanitized fragment. */
export async function renderMarkdown(markdown: string, language?: string): Promise<DocumentFragment> {
  return (await preloadMarkdown())(markdown, language);
}

class MarkdownDirective extends AsyncDirective {
  #source: string | undefined;

  render(source: string, language = 'en'): unknown {
    // The same words in another language render again.
    const key = `${language}\n${source}`;
    if (key === this.#source) return noChange;
    this.#source = key;
    if (ready) return ready(source, language);
    void preloadMarkdown().then((render) => {
      if (this.#source === key && this.isConnected) this.setValue(render(source, language));
    });
    // Until the renderer arrives: the same words, as plain text.
    return source;
  }

  protected override reconnected(): void {
    // Render again on reconnection: the fragment's nodes may have moved.
    this.#source = undefined;
  }
}

/** `${markdown(text, language)}` in a Lit template: sanitized markdown, its own words in `language`. */
export const markdown = directive(MarkdownDirective);
