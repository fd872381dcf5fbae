/**
 * The parts of a thread that show who answered and what they attached: the professional's card
 * (initials, name, title; specialties, licences and profile behind a disclosure) and the
 * attachments as safe links.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { ConsultationView } from '../../client/browser-types.js';
import type { Professional } from '../../client/types.js';
import { fileName, hostOf, httpsUrl } from '../shared/links.js';
import type { LocalizeController } from '../shared/localize.js';

/** Up to two letters for the professional's avatar: "Dr. Sofía Martínez" is "SM". */
function initials(name: string): string {
  const words = name
    .replace(/^\s*(?:dr|prof|mr|mrs|ms)\.?\s+/i, '')
    .split(/\s+/)
    .filter(Boolean);
  const first = (word: string | undefined) => (Array.from(word ?? '')[0] ?? '').toLocaleUpperCase();
  return first(words[0]) + (words.length > 1 ? first(words.at(-1)) : '');
}

/**
 * The professional on the case, once per thread: whoever answered last, or whoever claimed it.
 * Specialties, licences and the profile are behind a disclosure.
 */
export function professionalCard(
  c: ConsultationView,
  p: Professional,
  localize: LocalizeController<'thread'>,
): TemplateResult {
  const { list, region: country } = localize.format;
  const profile = httpsUrl(p.profileUrl);
  const answered = c.questions.some((q) => q.answer !== undefined && q.professional?.name === p.name);
  const details = p.specialties.length > 0 || p.licenses.length > 0 || profile;
  return html`<section part="professional" class="professional" aria-labelledby="professional-name">
    <span class="avatar" aria-hidden="true">${initials(p.name)}</span>
    <div class="who">
      <p class="label">${answered ? localize.t('answeredBy') : localize.t('claimedBy')}</p>
      <p class="name" id="professional-name" dir="auto">${p.name}</p>
      ${p.title ? html`<p class="title" dir="auto">${p.title}</p>` : nothing}
      ${
        details
          ? html`<details class="credentials">
              <summary>${localize.t('credentials')}</summary>
              ${
                p.specialties.length
                  ? html`<ul class="specialties" aria-label=${localize.t('specialties')}>
                      ${p.specialties.map((name) => html`<li dir="auto">${name}</li>`)}
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
            </details>`
          : nothing
      }
    </div>
  </section>`;
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
