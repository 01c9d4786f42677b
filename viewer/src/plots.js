// The plot panel: metrics.csv per step (energy, joint error, penetration, contacts and reduced
// pairs, LCP size and pivots) in uPlot charts, with a cursor line at the replay's time; a click
// on a chart seeks there.
import uPlot from 'uplot';

const CHARTS = [
  { title: 'energy (J)', series: [['kinetic_energy', 'kinetic', '#2f6fd6'], ['potential_energy', 'potential', '#2aa84a'], ['total_energy', 'total', '#222']] },
  { title: 'max joint error (m or rad)', series: [['max_joint_error', 'joint error', '#e08a1e']] },
  { title: 'max penetration (m)', series: [['max_penetration', 'penetration', '#d8343a']] },
  { title: 'contacts and reduced pairs', series: [['contacts', 'contacts', '#2f6fd6'], ['reduced_pairs', 'reduced pairs', '#9b3fc4']] },
  { title: 'LCP size and pivots per step', series: [['lcp_size', 'LCP size', '#2aa84a'], ['pivots', 'pivots', '#d8343a']] },
];

// a tick label: 3 significant digits, exponents for very small or large values
function tick(v) {
  if (v === 0) return '0';
  const a = Math.abs(v);
  return a < 1e-3 || a >= 1e5 ? v.toExponential(1) : String(Number(v.toPrecision(3)));
}

export class Plots {
  constructor(container, metrics, onSeek) {
    this.charts = [];
    this.cursors = [];
    const t = metrics.columns.t;
    if (!t || t.length === 0) {
      container.textContent = 'no steps in metrics.csv';
      return;
    }
    for (const chart of CHARTS) {
      const box = document.createElement('div');
      box.className = 'plot';
      container.appendChild(box);
      const data = [t, ...chart.series.map(([col]) => metrics.columns[col])];
      const u = new uPlot(
        {
          title: chart.title,
          width: Math.max(200, container.clientWidth - 12),
          height: 130,
          legend: { show: true, live: false },
          cursor: { drag: { x: false, y: false }, points: { show: false } },
          scales: { x: { time: false } },
          axes: [{ size: 28 }, { size: 60, values: (u, ticks) => ticks.map(tick) }],
          series: [{ label: 't (s)' }, ...chart.series.map(([, label, stroke]) => ({ label, stroke, width: 1.25 }))],
        },
        data,
        box,
      );
      const cursor = document.createElement('div');
      cursor.className = 'plot-cursor';
      u.over.appendChild(cursor);
      u.over.addEventListener('click', (e) => {
        const rect = u.over.getBoundingClientRect();
        onSeek(u.posToVal(e.clientX - rect.left, 'x'));
      });
      this.charts.push(u);
      this.cursors.push(cursor);
    }
  }

  // moves the cursor line of every chart to time t
  setTime(t) {
    this.charts.forEach((u, k) => {
      const x = u.valToPos(t, 'x');
      this.cursors[k].style.transform = `translateX(${Math.round(x)}px)`;
    });
  }

  resize(width) {
    for (const u of this.charts) u.setSize({ width: Math.max(200, width - 12), height: 130 });
  }
}
