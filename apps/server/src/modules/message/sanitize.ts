import sanitizeHtml from 'sanitize-html';

/** A CSS url(...) pointing at an http(s) image or an inline raster image; nothing else. */
const CSS_URL =
  /^url\(\s*(['"]?)(https?:\/\/[^'"()\s]+|data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+)\1\s*\)$/i;
const COLOR = [/^#[0-9a-f]{3,8}$/i, /^rgba?\([\d\s.,%]+\)$/i, /^[a-z]{3,20}$/i];
const LENGTH = [/^-?\d+(\.\d+)?(px|em|rem|%|pt|vw|vh)?$/];
const BOX = [/^(-?\d+(\.\d+)?(px|em|rem|%|pt)?\s*){1,4}$/];

/**
 * The allow-list for announcement content (rich text published by platform operators, shown to every
 * agency): formatting tags, links, images and a few inline styles. Scripts, event handlers, iframes,
 * forms and javascript: URLs never survive.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'div',
    'span',
    'br',
    'hr',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'del',
    'sub',
    'sup',
    'blockquote',
    'pre',
    'code',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'caption',
    'font',
  ],
  allowedAttributes: {
    '*': ['style', 'align'],
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
    font: ['color', 'size'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
  allowedStyles: {
    '*': {
      color: COLOR,
      'background-color': COLOR,
      'background-image': [CSS_URL],
      'background-size': [/^(cover|contain|auto|\d+(\.\d+)?(px|%)(\s+\d+(\.\d+)?(px|%))?)$/],
      'background-repeat': [/^(no-repeat|repeat|repeat-x|repeat-y)$/],
      'background-position': [/^[a-z0-9%.\s-]{1,40}$/i],
      'text-align': [/^(left|right|center|justify)$/],
      'font-size': LENGTH,
      'font-weight': [/^(normal|bold|bolder|lighter|\d{3})$/],
      'font-style': [/^(normal|italic)$/],
      'text-decoration': [/^(none|underline|line-through)$/],
      'line-height': LENGTH,
      'text-indent': LENGTH,
      width: LENGTH,
      height: LENGTH,
      'max-width': LENGTH,
      'min-height': LENGTH,
      margin: BOX,
      padding: BOX,
    },
  },
  transformTags: {
    // Links open in a new tab without giving the opened page a handle on this one.
    a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer' }),
  },
  // Only raster images may be inlined (an inline SVG could carry script when opened on its own).
  exclusiveFilter: (frame) =>
    frame.tag === 'img' &&
    /^data:/i.test(frame.attribs.src ?? '') &&
    !/^data:image\/(png|jpeg|gif|webp);/i.test(frame.attribs.src ?? ''),
};

/** Announcement HTML reduced to the allow-list. Used on publish and again on every read. */
export function sanitizeAnnouncement(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/** The first background image the (sanitised) content asks for, for the detail dialog; null without one. */
export function backgroundImageOf(html: string): string | null {
  const m = /background-image\s*:\s*url\(\s*(['"]?)([^'"()\s]+)\1\s*\)/i.exec(html);
  return m?.[2] ?? null;
}

/** Whether the sanitised content still has something to show (text or an image). */
export function hasVisibleContent(html: string): boolean {
  if (/<img\b/i.test(html) || /background-image/i.test(html)) return true;
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).replace(/&nbsp;|\s/g, '').length > 0;
}
