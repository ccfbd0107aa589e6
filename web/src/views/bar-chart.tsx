import { formatBytes } from '../format.js';

/** One group of the chart: a label and the two amounts side by side. */
export interface ChartGroup {
  label: string;
  shown: number | null;
  stored: number;
  href?: string;
}

const BAR_HEIGHT = 10;
const GROUP_GAP = 8;
const LABEL_WIDTH = 120;
const WIDTH = 560;

/**
 * Horizontal bars: what the model was shown (characters) vs what the store kept (bytes), per group, on a log scale
 * (a 200 MB entry and its 2 KB preview on one chart). SVG, no library.
 */
export function ShownStoredChart({ groups, title }: { groups: ChartGroup[]; title: string }) {
  const max = Math.max(1, ...groups.flatMap((group) => [group.shown ?? 0, group.stored]));
  const scale = (value: number) =>
    value <= 0 ? 0 : (Math.log10(value + 1) / Math.log10(max + 1)) * (WIDTH - LABEL_WIDTH - 70);
  const groupHeight = BAR_HEIGHT * 2 + GROUP_GAP;
  const height = groups.length * groupHeight + 24;
  return (
    <figure class="chart">
      <figcaption>
        {title} <span class="legend shown">shown (chars)</span>{' '}
        <span class="legend stored">stored (bytes)</span> <span class="muted">log scale</span>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${height}`} width="100%" role="img" aria-label={title}>
        {groups.map((group, index) => {
          const y = index * groupHeight;
          const label = group.label.length > 18 ? `${group.label.slice(0, 17)}…` : group.label;
          return (
            <g key={`${group.label}-${index}`} transform={`translate(0 ${y})`}>
              <text x={0} y={BAR_HEIGHT + 4} class="chart-label">
                {label}
              </text>
              <rect
                x={LABEL_WIDTH}
                y={0}
                width={scale(group.shown ?? 0)}
                height={BAR_HEIGHT}
                class="bar shown"
              />
              <text x={LABEL_WIDTH + scale(group.shown ?? 0) + 4} y={BAR_HEIGHT - 1} class="chart-value">
                {group.shown === null ? 'not logged' : formatBytes(group.shown)}
              </text>
              <rect
                x={LABEL_WIDTH}
                y={BAR_HEIGHT}
                width={scale(group.stored)}
                height={BAR_HEIGHT}
                class="bar stored"
              />
              <text x={LABEL_WIDTH + scale(group.stored) + 4} y={BAR_HEIGHT * 2 - 1} class="chart-value">
                {group.stored > 0 ? formatBytes(group.stored) : 'inline'}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
