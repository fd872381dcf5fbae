/**
 * The demo portal's own script: member switching, language and theme. It touches the elements only
 * through their public API (attributes, `signOut()`), as a partner's code would.
 */
import type { ConsultSession } from '../src/elements/consult-session/consult-session.js';

const session = document.querySelector<ConsultSession>('consult-session');
const memberSelect = document.querySelector<HTMLSelectElement>('#member');
const languageSelect = document.querySelector<HTMLSelectElement>('#language');
const themeSelect = document.querySelector<HTMLSelectElement>('#theme');

// Show who is signed in (the portal's own cookie, readable by the portal's page on purpose: it holds no secret).
const current = /(?:^|;\s*)portal_member_hint=([a-z]+)/.exec(document.cookie)?.[1];
if (memberSelect && current) memberSelect.value = current;

languageSelect?.addEventListener('change', () => {
  const lang = languageSelect.value;
  for (const element of document.querySelectorAll(
    'consult-session, consult-form, case-history, navigator-chat, consult-access, prescription-request',
  )) {
    if (lang) element.setAttribute('lang', lang);
    else element.removeAttribute('lang');
  }
});

themeSelect?.addEventListener('change', () => {
  for (const element of document.querySelectorAll(
    'consult-session, consult-form, case-history, navigator-chat, consult-access, prescription-request',
  )) {
    if (themeSelect.value) element.setAttribute('theme', themeSelect.value);
    else element.removeAttribute('theme');
  }
});

document.querySelector('#sign-out')?.addEventListener('click', async () => {
  session?.signOut();
  await fetch('/demo/sign-out', { method: 'POST' });
});

// A partner listens to the elements' events for its own analytics: ids and states only.
for (const type of [
  'consult-submitted',
  'consult-answered',
  'consult-followup',
  'navigator-handoff',
  'session-expired',
  'consult-error',
]) {
  document.addEventListener(type, (event) => console.info(`[portal] ${type}`, (event as CustomEvent).detail));
}
