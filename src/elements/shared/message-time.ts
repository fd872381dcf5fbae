/**
 * When a message was sent, as messengers show it: "now", "5 minutes ago", the time of day, then
 * the date; the full date and time for screen readers and on hover. And the day a run of
 * messages starts ("Today", "Yesterday", a date).
 */
import { html, type TemplateResult } from 'lit';
import type { Formatters } from './localize.js';
import { whenIdle } from './when-idle.js';

const MINUTE = 60_000;

const sameDay = (a: number, b: number) => new Date(a).toDateString() === new Date(b).toDateString();

/**
 * Makes the date and time formatter while the page waits for messages to show: the first one
 * loads the browser's date data (tens of milliseconds on a phone), which would otherwise fall in
 * the task that shows them.
 */
export function prepareTimes(format: Formatters): void {
  // Once a page: the data is the browser's, and a formatter of another language then costs little.
  if (prepared) return;
  prepared = true;
  whenIdle(() => format.dateTime(0));
}

let prepared = false;

/** The visible, short form of a time: relative within the hour, the time today, else the date and time. */
export function shortTime(iso: string, now: number, format: Formatters): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const minutes = Math.round((now - at) / MINUTE);
  if (minutes < 1) return format.relative.format(0, 'second');
  if (minutes < 60) return format.relative.format(-minutes, 'minute');
  return sameDay(at, now) ? format.time(iso) : format.dateTime(iso);
}

/** A `<time>`: the short form shown, the full date and time in its accessible name. */
export function messageTime(iso: string, now: number, format: Formatters): TemplateResult {
  const full = format.dateTime(iso);
  return html`<time datetime=${iso} title=${full}
    ><span aria-hidden="true">${shortTime(iso, now, format)}</span
    ><span class="visually-hidden">${full}</span></time
  >`;
}

/** The day a message falls on, for a separator: "Today", "Yesterday", else the date. */
export function dayLabel(iso: string, now: number, format: Formatters): string {
  const at = Date.parse(iso);
  if (sameDay(at, now)) return capitalize(format.relative.format(0, 'day'));
  if (sameDay(at, now - 24 * 60 * MINUTE)) return capitalize(format.relative.format(-1, 'day'));
  return format.date(iso);
}

const capitalize = (text: string) => text.charAt(0).toLocaleUpperCase() + text.slice(1);

/** The calendar day of a time, to tell when a separator is due. */
export const dayOf = (iso: string): string => new Date(Date.parse(iso)).toDateString();
