import type { ReactNode } from 'react';

/**
 * Our own illustrations, drawn as inline SVG so they scale, theme and cost no extra request. Panel
 * colours follow the active scheme through MUI's CSS variables; accents are fixed.
 */
const panel = { fill: 'var(--mui-palette-background-default)' };
const line = { stroke: 'var(--mui-palette-divider)' };
const ink = { fill: 'var(--mui-palette-text-secondary)' };

interface IllustrationProps {
  title: string;
}

function Frame({
  title,
  children,
  viewBox = '0 0 480 360',
}: IllustrationProps & { children: ReactNode; viewBox?: string }) {
  return (
    <svg viewBox={viewBox} role="img" aria-label={title} style={{ width: '100%', height: 'auto', display: 'block' }}>
      {children}
    </svg>
  );
}

/** A report in a browser window with an AI prompt beside it. */
export function StudioIllustration({ title }: IllustrationProps) {
  return (
    <Frame title={title}>
      <rect x="10" y="20" width="400" height="290" rx="16" style={{ ...panel, ...line }} strokeWidth="2" />
      <rect x="10" y="20" width="400" height="36" rx="16" fill="#1d4ed8" />
      <circle cx="34" cy="38" r="6" fill="#fca5a5" />
      <circle cx="54" cy="38" r="6" fill="#fde68a" />
      <circle cx="74" cy="38" r="6" fill="#86efac" />
      <rect x="36" y="80" width="160" height="110" rx="10" fill="#dbeafe" />
      <rect x="52" y="150" width="18" height="28" rx="3" fill="#1d4ed8" />
      <rect x="80" y="130" width="18" height="48" rx="3" fill="#2563eb" />
      <rect x="108" y="112" width="18" height="66" rx="3" fill="#3b82f6" />
      <rect x="136" y="96" width="18" height="82" rx="3" fill="#7c3aed" />
      <rect x="214" y="80" width="170" height="110" rx="10" fill="#ede9fe" />
      <polyline
        points="226,170 256,140 286,150 316,112 346,122 372,94"
        fill="none"
        stroke="#7c3aed"
        strokeWidth="5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <rect x="36" y="208" width="348" height="14" rx="7" style={ink} opacity="0.35" />
      <rect x="36" y="232" width="280" height="14" rx="7" style={ink} opacity="0.25" />
      <rect x="36" y="256" width="310" height="14" rx="7" style={ink} opacity="0.25" />
      <rect x="290" y="228" width="180" height="100" rx="18" fill="#0f172a" />
      <text x="310" y="262" fill="#fbbf24" fontSize="16" fontFamily="monospace">
        &gt; add a KPI
      </text>
      <text x="310" y="288" fill="#e2e8f0" fontSize="14" fontFamily="monospace">
        report: revenue
      </text>
      <text x="310" y="310" fill="#86efac" fontSize="14" fontFamily="monospace">
        ✓ schema checked
      </text>
    </Frame>
  );
}

/** Wide files narrowing through stages into a compact table. */
export function PipelineIllustration({ title }: IllustrationProps) {
  return (
    <Frame title={title}>
      {[0, 1, 2, 3, 4].map((index) => (
        <rect
          key={index}
          x={20 + index * 14}
          y={40 + index * 14}
          width="120"
          height="150"
          rx="10"
          fill={['#bfdbfe', '#93c5fd', '#60a5fa', '#3b82f6', '#2563eb'][index]}
        />
      ))}
      <path d="M190 60 L330 130 L330 230 L190 300 Z" fill="#ede9fe" />
      <path
        d="M200 90 L320 145 M200 180 L320 180 M200 270 L320 215"
        stroke="#7c3aed"
        strokeWidth="4"
        strokeLinecap="round"
      />
      <rect x="350" y="140" width="110" height="80" rx="10" style={panel} />
      <rect x="350" y="140" width="110" height="80" rx="10" fill="none" stroke="#16a34a" strokeWidth="3" />
      <path d="M362 162 H448 M362 180 H448 M362 198 H420" stroke="#16a34a" strokeWidth="6" strokeLinecap="round" />
      <text x="30" y="330" style={ink} fontSize="16" fontFamily="system-ui, sans-serif">
        terabytes in
      </text>
      <text x="350" y="250" style={ink} fontSize="16" fontFamily="system-ui, sans-serif">
        gigabytes out
      </text>
    </Frame>
  );
}

/** A primary BI site replicated to two standby sites. */
export function ReplicationIllustration({ title }: IllustrationProps) {
  const node = (x: number, y: number, color: string) => (
    <g>
      <rect x={x} y={y} width="120" height="90" rx="12" fill={color} />
      <rect x={x + 14} y={y + 16} width="92" height="12" rx="6" fill="#ffffff" opacity="0.8" />
      <rect x={x + 14} y={y + 38} width="70" height="12" rx="6" fill="#ffffff" opacity="0.6" />
      <rect x={x + 14} y={y + 60} width="80" height="12" rx="6" fill="#ffffff" opacity="0.6" />
    </g>
  );
  return (
    <Frame title={title}>
      {node(180, 30, '#1d4ed8')}
      {node(40, 230, '#7c3aed')}
      {node(320, 230, '#7c3aed')}
      <path
        d="M220 125 L110 225 M280 125 L380 225"
        stroke="#f59e0b"
        strokeWidth="5"
        strokeDasharray="10 8"
        strokeLinecap="round"
        fill="none"
      />
      <circle cx="240" cy="180" r="26" fill="#fef3c7" stroke="#f59e0b" strokeWidth="4" />
      <path d="M228 180 a12 12 0 1 1 6 10" stroke="#b45309" strokeWidth="4" fill="none" strokeLinecap="round" />
    </Frame>
  );
}

/** A cloud above layered lake storage. */
export function DataLakeIllustration({ title }: IllustrationProps) {
  return (
    <Frame title={title}>
      <path
        d="M120 130 a50 50 0 0 1 90 -40 a60 60 0 0 1 110 20 a45 45 0 0 1 10 90 H130 a40 40 0 0 1 -10 -70 Z"
        fill="#dbeafe"
        stroke="#3b82f6"
        strokeWidth="4"
      />
      <path d="M240 205 V245" stroke="#3b82f6" strokeWidth="5" strokeDasharray="8 7" />
      {[0, 1, 2].map((index) => (
        <ellipse
          key={index}
          cx="240"
          cy={265 + index * 26}
          rx={170 - index * 20}
          ry="22"
          fill={['#93c5fd', '#60a5fa', '#2563eb'][index]}
        />
      ))}
      <path d="M60 90 l14 -26 l14 26 z" fill="#16a34a" />
      <rect x="380" y="60" width="40" height="48" rx="6" fill="#fbbf24" />
      <path d="M392 60 v-10 a8 8 0 0 1 16 0 v10" stroke="#b45309" strokeWidth="4" fill="none" />
    </Frame>
  );
}

/** A path over hills toward a rising sun: where we come from and where we go. */
export function HorizonIllustration({ title }: IllustrationProps) {
  return (
    <Frame title={title}>
      <circle cx="330" cy="140" r="60" fill="#fde68a" />
      <path d="M0 260 Q120 170 240 230 T480 210 V360 H0 Z" fill="#93c5fd" />
      <path d="M0 300 Q140 240 280 290 T480 280 V360 H0 Z" fill="#2563eb" />
      <path
        d="M90 360 C150 320 200 300 260 270 S340 230 360 205"
        stroke="#ffffff"
        strokeWidth="8"
        fill="none"
        strokeLinecap="round"
        strokeDasharray="2 14"
      />
      <rect x="70" y="70" width="110" height="70" rx="10" style={panel} />
      <rect x="70" y="70" width="110" height="70" rx="10" fill="none" stroke="#7c3aed" strokeWidth="3" />
      <polyline
        points="84,124 108,104 130,114 164,86"
        fill="none"
        stroke="#7c3aed"
        strokeWidth="5"
        strokeLinecap="round"
      />
    </Frame>
  );
}
