import { useId, useState, type KeyboardEvent } from 'react';

export interface ChartPoint {
  /** A calendar day, `YYYY-MM-DD` (the API's Moscow day, shown as it is). */
  date: string;
  value: number;
}

const WEEKDAYS = ['вс', 'пн', 'вт', 'ср', 'чт', 'пт', 'сб'];

/** `2026-11-20` → `20.11`; with `full`, `20.11.2026, пт`. Parsed as written, not through a time zone. */
export function dayLabel(date: string, full = false): string {
  const [y = '', m = '', d = ''] = date.split('-');
  if (!full) return `${d}.${m}`;
  const weekday = WEEKDAYS[new Date(Date.UTC(Number(y), Number(m) - 1, Number(d))).getUTCDay()] ?? '';
  return `${d}.${m}.${y}, ${weekday}`;
}

/** The smallest «round» number (1, 2 or 5 × 10ⁿ) not below `n`; 0 stays 0. */
export function niceCeil(n: number): number {
  if (n <= 0) return 0;
  const power = 10 ** Math.floor(Math.log10(n));
  const step = [1, 2, 5, 10].find((s) => s * power >= n - power * 1e-9) ?? 10;
  return step * power;
}

/** At most `max` indices of `n` days, a whole number of days apart (no uneven gap), counted back from the last day. */
export function tickIndices(n: number, max = 7): number[] {
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  const step = Math.ceil((n - 1) / (max - 1));
  const out: number[] = [];
  for (let i = n - 1; i >= 0; i -= step) out.unshift(i);
  return out;
}

const BAR = 10;

export interface BarChartProps {
  title: string;
  points: readonly ChartPoint[];
  format: (n: number) => string;
  /** What the chart says when no day is pointed at (the period's total). */
  summary: string;
}

/**
 * A bar per day, drawn in SVG with HTML axis labels (they stay readable at any width): a day's
 * value shows on hover (the bar's `<title>`) and, with the chart focused, on ←/→ (Home/End) in
 * the line above it. A visually hidden table holds every value for screen readers.
 */
export function BarChart({ title, points, format, summary }: BarChartProps) {
  const id = useId();
  const [active, setActive] = useState<number | null>(null);
  const values = points.map((p) => p.value);
  const top = niceCeil(Math.max(0, ...values));
  const bottom = -niceCeil(Math.max(0, ...values.map((v) => -v)));
  const span = top - bottom || 1;
  const y = (v: number) => ((top - v) / span) * 100;
  // A middle line only where it falls on a value the series can take (no «2,5 платежа»).
  const middle = Number.isInteger(top / 2) || values.some((v) => !Number.isInteger(v)) ? [top / 2] : [];
  const gridlines = [...new Set(bottom < 0 ? [top, 0, bottom] : [top, ...middle, 0])];
  // Labels of lines too close to one already labelled would overlap it (a small negative part).
  const labelled = gridlines.reduce<number[]>((kept, g) => (kept.every((k) => Math.abs(y(k) - y(g)) >= 14) ? [...kept, g] : kept), []);
  const width = Math.max(points.length, 1) * BAR;
  const current = active === null ? null : points[active];
  const onKey = (event: KeyboardEvent) => {
    const last = points.length - 1;
    const from = active ?? last;
    const next = { ArrowLeft: from - 1, ArrowRight: from + 1, Home: 0, End: last }[event.key];
    if (next === undefined || last < 0) return;
    event.preventDefault();
    setActive(Math.min(Math.max(next, 0), last));
  };
  return (
    <figure className="admin-chart" aria-labelledby={`${id}-title`}>
      <figcaption className="admin-chart__head">
        <span className="admin-chart__title" id={`${id}-title`}>
          {title}
        </span>
        <span className="admin-chart__readout" id={`${id}-readout`}>
          {current ? `${dayLabel(current.date, true)}: ${format(current.value)}` : summary}
        </span>
      </figcaption>
      <div className="admin-chart__plot">
        <svg
          className="admin-chart__svg"
          viewBox={`0 0 ${String(width)} 100`}
          preserveAspectRatio="none"
          role="img"
          aria-label={`${title} по дням; значения — в таблице ниже`}
          aria-describedby={`${id}-readout`}
          tabIndex={0}
          onKeyDown={onKey}
          onFocus={() => setActive((a) => a ?? (points.length ? points.length - 1 : null))}
          onBlur={() => setActive(null)}
          onMouseLeave={() => setActive(null)}
        >
          {gridlines.map((g) => (
            <line key={g} className={g === 0 ? 'admin-chart__zero' : 'admin-chart__grid'} x1={0} x2={width} y1={y(g)} y2={y(g)} vectorEffect="non-scaling-stroke" />
          ))}
          {points.map((p, i) => (
            <g key={p.date} className={`admin-chart__day${i === active ? ' is-active' : ''}`} onMouseEnter={() => setActive(i)}>
              <title>{`${dayLabel(p.date, true)}: ${format(p.value)}`}</title>
              <rect className="admin-chart__hit" x={i * BAR} y={0} width={BAR} height={100} />
              <rect className={`admin-chart__bar${p.value < 0 ? ' is-negative' : ''}`} x={i * BAR + BAR * 0.15} width={BAR * 0.7} y={y(Math.max(p.value, 0))} height={Math.abs(y(p.value) - y(0))} />
            </g>
          ))}
        </svg>
        <div className="admin-chart__y" aria-hidden="true">
          {labelled.map((g) => (
            <span key={g} style={{ top: `${String(y(g))}%` }}>
              {format(g)}
            </span>
          ))}
        </div>
      </div>
      <div className="admin-chart__x" aria-hidden="true">
        {tickIndices(points.length).map((i) => (
          <span key={i} style={{ left: `${String(((i + 0.5) / points.length) * 100)}%` }}>
            {dayLabel(points[i]?.date ?? '')}
          </span>
        ))}
      </div>
      {/* A table is as big as its rows whatever its own size says: the hidden box around it is what takes no room. */}
      <div className="visually-hidden">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">День</th>
              <th scope="col">Значение</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.date}>
                <th scope="row">{dayLabel(p.date, true)}</th>
                <td>{format(p.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
