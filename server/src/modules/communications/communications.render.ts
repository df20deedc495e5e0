import sanitizeHtml from 'sanitize-html';
import { type CommunicationVariable, VARIABLE_PATTERN } from '@mss/contracts/communications';

/*
 * What a communication's mail is made of: the body sanitised with a strict allow-list (when saved
 * and again when sent), the variables rendered per recipient, and a text part next to the HTML.
 */

/**
 * The allow-list: what the editor writes (paragraphs, headings, lists, emphasis, links, quotes,
 * code, rules). No scripts, styles, event handlers, forms, frames or images (remote images are
 * how mails track their readers); links only to http, https and mailto, opened in a new tab
 * without the referrer.
 */
const ALLOW: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'h1', 'h2', 'h3', 'h4', 'strong', 'b', 'em', 'i', 'u', 's', 'ul', 'ol', 'li', 'a', 'blockquote', 'code', 'pre', 'hr', 'sub', 'sup'],
  allowedAttributes: { a: ['href', 'target', 'rel'], ol: ['start'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer nofollow' } }),
  },
};

export function sanitizeBody(html: string): string {
  return sanitizeHtml(html, ALLOW).trim();
}

export type Variables = Record<CommunicationVariable, string>;

type Texts = Record<string, { subject: string; body: string } | undefined>;

/**
 * The communication as a reader of `locale` gets it: its subject and body in that language when it
 * holds them (`texts`, an automatic reminder's), its own otherwise.
 */
export function textIn<T extends { subject: string; body: string; texts: unknown }>(communication: T, locale: string | null): T {
  const own = locale ? (communication.texts as Texts | null)?.[locale] : undefined;
  return own ? { ...communication, subject: own.subject, body: own.body } : communication;
}

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** No line breaks in a header: a subject or name cannot add headers to the mail. */
export const oneLine = (text: string) => text.replace(/[\s\u2028\u2029]+/g, ' ').trim();

/** Replaces `{{name}}` with the recipient's value (HTML-escaped in HTML). */
export function renderVariables(text: string, variables: Variables, as: 'text' | 'html'): string {
  return text.replace(VARIABLE_PATTERN, (_, name: string) => {
    const value = variables[name as CommunicationVariable] ?? '';
    return as === 'html' ? escapeHtml(value) : value;
  });
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** A readable text part from the sanitised HTML: paragraphs and list items on their own lines, links with their address. */
export function htmlToText(html: string): string {
  return html
    .replace(/<a\b[^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/gis, (_, href: string, label: string) => {
      const text = label.replace(/<[^>]+>/g, '');
      const url = href.replace(/&amp;/g, '&');
      return text.trim() === url.trim() ? url : `${text} (${url})`;
    })
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '- ')
    .replace(/<\/(p|h[1-6]|li|blockquote|pre|ul|ol)>/gi, '\n')
    .replace(/<hr\s*\/?>/gi, '\n----\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(#\d+|[a-z]+);/gi, (entity, name: string) =>
      name.startsWith('#') ? String.fromCharCode(Number(name.slice(1))) : (ENTITIES[name.toLowerCase()] ?? entity),
    )
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface MailParts {
  subject: string;
  html: string;
  text: string;
}

/**
 * The mail one recipient gets: the subject and body with the variables rendered, the body
 * sanitised again, the foot notes under it and the organization's mail description as footer.
 */
export function renderMail(
  communication: { subject: string; body: string; foot_notes: string | null },
  variables: Variables,
  footer: string | null,
): MailParts {
  const subject = oneLine(renderVariables(communication.subject, variables, 'text'));
  const body = sanitizeBody(renderVariables(communication.body, variables, 'html'));
  const notes = communication.foot_notes?.trim() ? renderVariables(communication.foot_notes.trim(), variables, 'text') : null;
  const paragraphs = (text: string) =>
    text
      .split(/\n{2,}/)
      .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
      .join('');
  const html = [
    '<!doctype html><html><body style="font-family: Arial, Helvetica, sans-serif; font-size: 14px; line-height: 1.5; color: #222">',
    body,
    notes ? `<div style="margin-top: 24px; font-size: 12px; color: #555">${paragraphs(notes)}</div>` : '',
    footer?.trim() ? `<hr><div style="font-size: 12px; color: #777">${paragraphs(footer.trim())}</div>` : '',
    '</body></html>',
  ].join('');
  const text = [htmlToText(body), notes ?? '', footer?.trim() ? `--\n${footer.trim()}` : ''].filter((p) => p !== '').join('\n\n');
  return { subject, html, text };
}
