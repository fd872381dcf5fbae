/**
 * The parts of an answer that show who gave it and what they attached: the professional's
 * initials, their specialties, licences and profile behind a disclosure, and the attachments as
 * safe links.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { Professional } from '../../client/types.js';
import { fileName, hostOf, httpsUrl } from '../shared/links.js';
import type { Formatters, LocalizeController } from '../shared/localize.js';
import { professionWords } from '../shared/profession.js';
import { whenIdle } from '../shared/when-idle.js';

let prepared = false;

/**
 * Makes the formatters of an answer's credentials (the countries of a licence, as a list) while the
 * page waits for it: the first of each loads the browser's data for it, several milliseconds on a
 * phone, which would otherwise fall in the task that shows the answer. Once a page, like the date
 * data (`prepareTimes`); each in an idle moment of its own.
 */
export function prepareCredentials(format: Formatters): void {
  if (prepared) return;
  prepared = true;
  whenIdle(() => format.region('GB'));
  whenIdle(() => format.list(['', '']));
}

/** Up to two letters for the professional's avatar: "Dr. Sofía Martínez" is "SM". */
export function initials(name: string): string {
  const words = name
    .replace(/^\s*(?:dr|prof|mr|mrs|ms)\.?\s+/i, '')
    .split(/\s+/)
    .filter(Boolean);
  const first = (word: string | undefined) => (Array.from(word ?? '')[0] ?? '').toLocaleUpperCase();
  return first(words[0]) + (words.length > 1 ? first(words.at(-1)) : '');
}

/** A professional's specialties, licences and profile, behind a disclosure; nothing when none are known. */
export function credentials(
  p: Professional,
  localize: LocalizeController<'thread'>,
): TemplateResult | typeof nothing {
  const { list, region: country } = localize.format;
  const profile = httpsUrl(p.profileUrl);
  if (p.specialties.length === 0 && p.licenses.length === 0 && !profile) return nothing;
  return html`<details class="credentials">
    <summary>${localize.t('credentials')}</summary>
    ${
      p.specialties.length
        ? html`<ul class="specialties" aria-label=${localize.t('specialties')}>
            ${p.specialties.map((name) => html`<li dir="auto">${professionWords(localize.language, name)}</li>`)}
          </ul>`
        : nothing
    }
    ${
      p.licenses.length
        ? html`<ul class="licences">
            ${p.licenses.map(
              (l) =>
                html`<li>
                  ${localize.t('licence', { number: l.licenseNumber, countries: list(l.countries.map(country)) })}
                </li>`,
            )}
          </ul>`
        : nothing
    }
    ${
      profile
        ? html`<a class="profile" href=${profile.href} target="_blank" rel="noopener noreferrer"
            >${localize.t('profile', { name: p.name })}</a
          >`
        : nothing
    }
  </details>`;
}

/** Attachments as safe links with their host; what is not https is counted, never linked. */
export function attachmentList(
  urls: string[],
  localize: LocalizeController<'thread'>,
): TemplateResult | typeof nothing {
  const safe = urls.map(httpsUrl).filter((url): url is URL => url !== undefined);
  const leftOut = urls.length - safe.length;
  if (urls.length === 0) return nothing;
  return html`<div class="attachments">
    <p class="label">${localize.t('attachments')}</p>
    ${
      safe.length
        ? html`<ul>
            ${safe.map(
              (url) =>
                html`<li>
                  <a href=${url.href} target="_blank" rel="noopener noreferrer">${fileName(url)}</a>
                  <span class="host">${hostOf(url)}</span>
                </li>`,
            )}
          </ul>`
        : nothing
    }
    ${leftOut ? html`<p class="note">${localize.t('attachmentsLeftOut', { count: leftOut })}</p>` : nothing}
  </div>`;
}
