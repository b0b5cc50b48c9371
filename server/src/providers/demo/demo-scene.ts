import sharp from 'sharp';
import { hashText, seededRandom, shorten } from './demo-text.ts';

/** What the demo draws: a motif picked from the prompt's words, or by its hash when no word matches. */
export type Motif = 'night' | 'sea' | 'mountains' | 'sunset' | 'city' | 'abstract';

const MOTIF_WORDS: [Motif, RegExp][] = [
  ['sea', /мор[еяю]|океан|вод[аыу]|волн|рек[аиу]|озер|пляж|sea|ocean|water|wave/i],
  ['sunset', /закат|рассвет|солнц|пустын|лето|sunset|sunrise|sun\b|desert/i],
  ['mountains', /гор[аыу]|горы|лес|дерев|природ|поле|трав|сад|mountain|forest|tree/i],
  ['city', /город|улиц|здани|небоскр|неон|киберпанк|city|street|neon|cyberpunk/i],
  ['night', /ноч|космос|звёзд|звезд|галакти|луна|луну|луны|space|night|star/i],
];
const MOTIFS: Motif[] = ['night', 'sea', 'sunset', 'mountains', 'city', 'abstract'];

/** The motif of a prompt. */
export function motifOf(prompt: string): Motif {
  return MOTIF_WORDS.find(([, re]) => re.test(prompt))?.[0] ?? MOTIFS[hashText(prompt) % MOTIFS.length] ?? 'abstract';
}

function hsl(h: number, s: number, l: number): string {
  const hue = ((h % 360) + 360) % 360;
  const sat = Math.max(0, Math.min(100, s)) / 100;
  const lig = Math.max(0, Math.min(100, l)) / 100;
  const k = (n: number) => (n + hue / 30) % 12;
  const a = sat * Math.min(lig, 1 - lig);
  const f = (n: number) => Math.round(255 * (lig - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1))));
  return `#${[f(0), f(8), f(4)].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const n = (v: number) => (Math.round(v * 10) / 10).toString();

/** Options of a scene. */
export interface SceneOptions {
  prompt: string;
  width: number;
  height: number;
  /** Variant of the prompt (the n-th image of a batch): another seed, another picture. */
  variant: number;
  /** 0–1: how much detail (more shapes) — from the requested quality. */
  detail: number;
  /** Animation phase 0–1 (video frames); still images use 0. */
  t: number;
  /** A colour the scene is tinted towards (an example image's dominant colour). */
  tint?: { r: number; g: number; b: number } | null;
  /** Opacity of the whole scene (below 1 when it is laid over a user's image). */
  opacity?: number;
}

/**
 * An SVG composition for a prompt: a gradient sky or background and the motif's shapes, all
 * placed by a generator seeded from the prompt and the variant, so the same prompt always
 * gives the same picture and another prompt a visibly different one.
 */
export function sceneSvg(o: SceneOptions): string {
  const { width: w, height: h, t } = o;
  const seed = hashText(`${o.prompt}#${o.variant}`);
  const rnd = seededRandom(seed);
  const motif = motifOf(o.prompt);
  const hue = rnd() * 360;
  const m = Math.min(w, h);
  const tau = Math.PI * 2;
  const count = (base: number) => Math.round(base * (0.6 + 0.8 * o.detail));
  const parts: string[] = [];
  let top: string;
  let bottom: string;
  switch (motif) {
    case 'night': {
      top = hsl(225 + rnd() * 40, 55, 7);
      bottom = hsl(260 + rnd() * 40, 45, 22);
      for (let i = 0; i < count(90); i += 1) {
        const twinkle = 0.35 + 0.65 * Math.abs(Math.sin(tau * (t + rnd())));
        parts.push(`<circle cx="${n(rnd() * w)}" cy="${n(rnd() * h * 0.85)}" r="${n((0.4 + rnd() * 1.6) * (m / 512))}" fill="#ffffff" opacity="${n(twinkle)}"/>`);
      }
      const mx = w * (0.2 + rnd() * 0.6) + Math.sin(tau * t) * w * 0.03;
      const my = h * (0.15 + rnd() * 0.25);
      const mr = m * (0.07 + rnd() * 0.05);
      parts.push(`<circle cx="${n(mx)}" cy="${n(my)}" r="${n(mr * 2.6)}" fill="url(#glow)"/>`);
      parts.push(
        `<mask id="crescent"><rect width="${w}" height="${h}" fill="#fff"/><circle cx="${n(mx + mr * 0.45)}" cy="${n(my - mr * 0.2)}" r="${n(mr * 0.92)}" fill="#000"/></mask>`,
        `<circle cx="${n(mx)}" cy="${n(my)}" r="${n(mr)}" fill="${hsl(50, 80, 88)}" mask="url(#crescent)"/>`,
      );
      break;
    }
    case 'sea': {
      top = hsl(195 + rnd() * 20, 70, 78);
      bottom = hsl(205 + rnd() * 20, 65, 52);
      const sx = w * (0.15 + rnd() * 0.7);
      parts.push(`<circle cx="${n(sx)}" cy="${n(h * 0.3)}" r="${n(m * 0.09)}" fill="${hsl(48, 95, 70)}"/>`);
      const layers = count(5);
      for (let i = 0; i < layers; i += 1) {
        const base = h * (0.5 + (i / layers) * 0.45);
        const amp = m * (0.015 + rnd() * 0.03);
        const len = w / (1.2 + rnd() * 2);
        const phase = rnd() * tau + tau * t * (i % 2 === 0 ? 1 : -1);
        let d = `M0 ${n(h)} L0 ${n(base)}`;
        for (let x = 0; x <= w; x += Math.max(4, w / 64)) d += ` L${n(x)} ${n(base + amp * Math.sin((x / len) * tau + phase))}`;
        d += ` L${n(w)} ${n(h)} Z`;
        parts.push(`<path d="${d}" fill="${hsl(200 + i * 4, 70, 50 - i * 6)}" opacity="0.85"/>`);
      }
      break;
    }
    case 'sunset': {
      top = hsl(265 + rnd() * 30, 55, 30);
      bottom = hsl(15 + rnd() * 25, 90, 62);
      const horizon = h * (0.62 + rnd() * 0.1);
      const sr = m * (0.14 + rnd() * 0.06);
      const sy = horizon - sr * (0.4 + 0.2 * Math.sin(tau * t));
      parts.push(`<circle cx="${n(w / 2)}" cy="${n(sy)}" r="${n(sr * 2.4)}" fill="url(#glow)"/>`);
      parts.push(`<circle cx="${n(w / 2)}" cy="${n(sy)}" r="${n(sr)}" fill="${hsl(40, 100, 65)}"/>`);
      parts.push(`<rect x="0" y="${n(horizon)}" width="${w}" height="${n(h - horizon)}" fill="${hsl(280, 40, 20)}" opacity="0.92"/>`);
      for (let i = 0; i < count(9); i += 1) {
        const y = horizon + (h - horizon) * ((i + 1) / 11);
        const half = sr * (1 - i / 12) * (0.8 + 0.2 * Math.sin(tau * (t + i / 9)));
        parts.push(`<rect x="${n(w / 2 - half)}" y="${n(y)}" width="${n(half * 2)}" height="${n(Math.max(1, m / 200))}" fill="${hsl(35, 100, 65)}" opacity="${n(0.7 - i * 0.05)}"/>`);
      }
      break;
    }
    case 'mountains': {
      top = hsl(190 + rnd() * 30, 60, 80);
      bottom = hsl(40 + rnd() * 20, 60, 85);
      const ranges = 3;
      for (let r = 0; r < ranges; r += 1) {
        const base = h * (0.55 + r * 0.15);
        const peaks = 3 + Math.floor(rnd() * 4);
        let d = `M0 ${n(h)} L0 ${n(base)}`;
        for (let p = 0; p <= peaks; p += 1) {
          const x = (w / peaks) * p;
          const shift = Math.sin(tau * t) * w * 0.01 * (r + 1);
          d += ` L${n(x - w / peaks / 2 + shift)} ${n(base - h * (0.12 + rnd() * 0.22) / (r + 1))} L${n(x + shift)} ${n(base)}`;
        }
        d += ` L${n(w)} ${n(h)} Z`;
        parts.push(`<path d="${d}" fill="${hsl(150 - r * 25 + hue * 0.05, 35 + r * 10, 45 - r * 12)}"/>`);
      }
      for (let i = 0; i < count(12); i += 1) {
        const x = rnd() * w;
        const y = h * (0.88 + rnd() * 0.1);
        const th = m * (0.05 + rnd() * 0.07);
        const sway = Math.sin(tau * (t + rnd())) * th * 0.06;
        parts.push(`<path d="M${n(x + sway)} ${n(y - th)} L${n(x - th * 0.3)} ${n(y)} L${n(x + th * 0.3)} ${n(y)} Z" fill="${hsl(140, 45, 18)}"/>`);
      }
      break;
    }
    case 'city': {
      top = hsl(270 + rnd() * 30, 60, 10);
      bottom = hsl(300 + rnd() * 40, 70, 30);
      parts.push(`<rect x="0" y="${n(h * (0.45 + 0.05 * Math.sin(tau * t)))}" width="${w}" height="${n(Math.max(2, m / 120))}" fill="${hsl(hue, 95, 60)}" opacity="0.7"/>`);
      let x = 0;
      while (x < w) {
        const bw = m * (0.06 + rnd() * 0.1);
        const bh = h * (0.25 + rnd() * 0.5);
        parts.push(`<rect x="${n(x)}" y="${n(h - bh)}" width="${n(bw)}" height="${n(bh)}" fill="${hsl(260, 30, 8 + rnd() * 8)}"/>`);
        const win = Math.max(2, m / 90);
        for (let wy = h - bh + win * 2; wy < h - win * 2; wy += win * 3) {
          for (let wx = x + win; wx < x + bw - win; wx += win * 2.5) {
            const lit = rnd() < 0.35 + 0.15 * Math.sin(tau * (t + wx / w));
            if (lit) parts.push(`<rect x="${n(wx)}" y="${n(wy)}" width="${n(win)}" height="${n(win * 1.4)}" fill="${hsl(45 + rnd() * 20, 90, 70)}"/>`);
          }
        }
        x += bw + m * 0.01;
      }
      break;
    }
    case 'abstract': {
      top = hsl(hue, 70, 60);
      bottom = hsl(hue + 60 + rnd() * 120, 70, 45);
      for (let i = 0; i < count(10); i += 1) {
        const cx = rnd() * w + Math.cos(tau * (t + i / 10)) * m * 0.04;
        const cy = rnd() * h + Math.sin(tau * (t + i / 10)) * m * 0.04;
        const r = m * (0.05 + rnd() * 0.2);
        const color = hsl(hue + rnd() * 180, 80, 55 + rnd() * 25);
        if (i % 3 === 2) {
          parts.push(`<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="none" stroke="${color}" stroke-width="${n(m / 60)}" opacity="0.7"/>`);
        } else if (i % 3 === 1) {
          const angle = rnd() * 90 + t * 90;
          parts.push(`<rect x="${n(cx - r)}" y="${n(cy - r / 2)}" width="${n(r * 2)}" height="${n(r)}" rx="${n(r / 4)}" fill="${color}" opacity="0.55" transform="rotate(${n(angle)} ${n(cx)} ${n(cy)})"/>`);
        } else {
          parts.push(`<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="${color}" opacity="0.6"/>`);
        }
      }
      break;
    }
  }
  const angle = rnd() * 0.4;
  const tint = o.tint ? `<rect width="${w}" height="${h}" fill="rgb(${o.tint.r},${o.tint.g},${o.tint.b})" opacity="0.28"/>` : '';
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">`,
    '<defs>',
    `<linearGradient id="bg" x1="${n(angle)}" y1="0" x2="${n(1 - angle)}" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient>`,
    '<radialGradient id="glow"><stop offset="0" stop-color="#fff6d0" stop-opacity="0.55"/><stop offset="1" stop-color="#fff6d0" stop-opacity="0"/></radialGradient>',
    '<radialGradient id="vignette" cx="0.5" cy="0.5" r="0.75"><stop offset="0.6" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.35"/></radialGradient>',
    '</defs>',
    `<g opacity="${n(o.opacity ?? 1)}">`,
    `<rect width="${w}" height="${h}" fill="url(#bg)"/>`,
    tint,
    ...parts,
    `<rect width="${w}" height="${h}" fill="url(#vignette)"/>`,
    '</g>',
    '</svg>',
  ].join('');
}

const FONT = "DejaVu Sans, Liberation Sans, Noto Sans, Arial, sans-serif";

/**
 * A transparent layer with the «Демо» badge and the prompt as a caption on a dark band
 * (at most two lines). Null when no font can draw Cyrillic here: the picture then has shapes only.
 */
export async function captionLayer(prompt: string, width: number, height: number, label: string): Promise<Buffer | null> {
  if (!(await canRenderText())) return null;
  const m = Math.min(width, height);
  const fs = Math.max(10, Math.round(m / 24));
  const pad = Math.round(fs * 0.8);
  const perLine = Math.max(8, Math.floor((width - pad * 2) / (fs * 0.58)));
  const words = prompt.replace(/\s+/g, ' ').trim().split(' ');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (`${line} ${word}`.trim().length > perLine && line) {
      lines.push(line);
      line = word;
    } else line = `${line} ${word}`.trim();
  }
  if (line) lines.push(line);
  const shown = lines.slice(0, 2).map((l, i) => (i === 1 && lines.length > 2 ? shorten(`${l} ${lines.slice(2).join(' ')}`, perLine) : shorten(l, perLine)));
  const band = shown.length * fs * 1.35 + pad * 1.2;
  const badgeFs = Math.max(9, Math.round(fs * 0.75));
  const badgeW = Math.round(badgeFs * (label.length * 0.68 + 1.6));
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">`,
    shown.length ? `<rect x="0" y="${n(height - band)}" width="${width}" height="${n(band)}" fill="#000" opacity="0.45"/>` : '',
    ...shown.map(
      (l, i) =>
        `<text x="${pad}" y="${n(height - band + pad * 0.6 + fs * (i + 1) * 1.2)}" font-family="${FONT}" font-size="${fs}" fill="#ffffff">${escapeXml(l)}</text>`,
    ),
    `<rect x="${pad}" y="${pad}" width="${badgeW}" height="${n(badgeFs * 1.8)}" rx="${n(badgeFs * 0.5)}" fill="#ffffff" opacity="0.85"/>`,
    `<text x="${n(pad + badgeW / 2)}" y="${n(pad + badgeFs * 1.25)}" font-family="${FONT}" font-size="${badgeFs}" font-weight="bold" text-anchor="middle" fill="#1b1b2f">${escapeXml(label)}</text>`,
    '</svg>',
  ].join('');
  return sharp(Buffer.from(svg)).png().toBuffer();
}

let textProbe: Promise<boolean> | undefined;

/**
 * Whether the SVG renderer finds a font for Cyrillic here. «Ж» is drawn once: with no font
 * for it, Pango draws a «missing glyph» box instead, whose top and bottom rows are solid ink,
 * which Ж's are not. Cached for the process.
 */
export function canRenderText(): Promise<boolean> {
  textProbe ??= (async () => {
    try {
      const size = 48;
      const probe = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><text x="6" y="38" font-family="${FONT}" font-size="32" fill="#000">Ж</text></svg>`;
      const alpha = await sharp(Buffer.from(probe)).ensureAlpha().extractChannel(3).raw().toBuffer();
      const inked = (x: number, y: number) => (alpha[y * size + x] ?? 0) > 128;
      const rows: number[] = [];
      const cols: number[] = [];
      for (let y = 0; y < size; y += 1) {
        for (let x = 0; x < size; x += 1) {
          if (inked(x, y)) {
            rows.push(y);
            cols.push(x);
          }
        }
      }
      if (rows.length < 20) return false;
      const [left, right, top, bottom] = [Math.min(...cols), Math.max(...cols), Math.min(...rows), Math.max(...rows)];
      const fill = (y: number) => {
        let count = 0;
        for (let x = left; x <= right; x += 1) count += inked(x, y) ? 1 : 0;
        return count / (right - left + 1);
      };
      return !(fill(top) > 0.9 && fill(bottom) > 0.9);
    } catch {
      return false;
    }
  })();
  return textProbe;
}
