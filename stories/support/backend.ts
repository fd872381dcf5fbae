/**
 * Stories run against a partner's whole back end in the page: the sandbox behind the real proxy.
 * Professionals answer on their own within seconds, so live updates show in the stories too.
 */
import type { ArgTypes } from '@storybook/web-components-vite';
import { html, type TemplateResult } from 'lit';
import '../../src/define.js';
import { createDemoBackend, type DemoBackend } from '../../src/sandbox/demo-backend.js';

let backend: DemoBackend | undefined;

export function demoBackend(): DemoBackend {
  backend ??= createDemoBackend({
    sandbox: { professionals: { mode: 'auto', claimAfterMs: 1500, answerAfterMs: 3000 } },
  });
  return backend;
}

export const MEMBERS = ['alex', 'sam', 'noor'] as const;
export type Member = (typeof MEMBERS)[number];

export interface SessionArgs {
  member: Member;
  lang: '' | 'en' | 'de' | 'fr' | 'es' | 'nl' | 'ar';
  theme: '' | 'light' | 'dark';
}

export const sessionArgTypes: Partial<ArgTypes<SessionArgs>> = {
  member: {
    control: 'select',
    options: [...MEMBERS],
    description: 'Demo member signed in through the proxy',
  },
  // `lang` and `theme` are the elements' own attributes: their descriptions come from custom-elements.json.
  lang: { control: 'select', options: ['', 'en', 'de', 'fr', 'es', 'nl', 'ar'] },
  theme: { control: 'inline-radio', options: ['', 'light', 'dark'] },
};

export const sessionArgs: SessionArgs = { member: 'alex', lang: '', theme: '' };

/** `content` inside a `<consult-session>` signed in as the chosen demo member. */
export function inSession(args: SessionArgs, content: TemplateResult): TemplateResult {
  const backend = demoBackend();
  return html`<consult-session
    lang=${args.lang || ''}
    theme=${args.theme || ''}
    .fetch=${backend.fetch}
    .tokenProvider=${backend.signInAs(args.member)}
    >${content}</consult-session
  >`;
}
