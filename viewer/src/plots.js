// The plot panel: metrics.csv per step (energy, joint error, penetration, contacts and reduced
// pairs, LCP size and pivots) and sensors.csv (a chart per sensor, its fields as series) in
// uPlot charts, with a cursor line at the replay's time; a click on a chart seeks there.
import uPlot from 'uplot';

// `unused(run)`: why a chart does not apply to the run (shown in its place), or '' when it does
const COLOURS = ['#2f6fd6', '#2aa84a', '#d8343a', '#e08a1e', '#9b3fc4', '#222', '#1aa3a3', '#b5651d', '#777', '#c2185b'];

const CHARTS = [
  { title: 'energy (J)', series: [['kinetic_energy', 'kinetic', '#2f6fd6'], ['potential_energy', 'potential', '#2aa84a'], ['total_energy', 'total', '#222']],
    unused: (run) => (run.mode === 'animator' ? 'not computed: the bodies follow key frames (pivot animate)' : '') },
  { title: 'max joint error (m or rad)', series: [['max_joint_error', 'joint error', '#e08a1e']],
    unused: (run) => (run.joints === null || run.joints.list.length === 0 ? 'no joints in this scene' : '') },
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
  constructor(container, run, onSeek) {
    const metrics = run.metrics;
    this.charts = [];
    this.cursors = [];
    const t = metrics.columns.t;
    if (!t || t.length === 0) {
      container.textContent = 'no steps in metrics.csv';
      return;
    }
    for (const chart of CHARTS) this.add(container, run, chart, t, metrics.columns, onSeek);
    // a chart per sensor of sensors.csv, at the times it sampled
    for (const sensor of run.sensors) {
      const fields = Object.keys(sensor.fields);
      const chart = { title: `sensor ${sensor.name}`, series: fields.map((f, k) => [f, f, COLOURS[k % COLOURS.length]]) };
      if (sensor.t.length > 0) this.add(container, run, chart, sensor.t, sensor.fields, onSeek);
    }
  }

  // a chart of `columns` (series [column, label, colour]) over the times t
  add(container, run, chart, t, columns, onSeek) {
    const box = document.createElement('div');
    box.className = 'plot';
    container.appendChild(box);
    const why = chart.unused ? chart.unused(run) : '';
    if (why) {
      box.classList.add('plot-unused');
      box.innerHTML = '<div class="u-title"></div><div class="why"></div>';
      box.querySelector('.u-title').textContent = chart.title;
      box.querySelector('.why').textContent = why;
      return;
    }
    const data = [t, ...chart.series.map(([col]) => columns[col])];
    // a chart whose values are all 0 keeps a 0 … 1 axis, not uPlot's 0 … 100 for empty data
    const zero = data.slice(1).every((col) => col.every((v) => v === 0));
    const u = new uPlot(
      {
        title: chart.title,
        width: Math.max(200, container.clientWidth - 12),
        height: 130,
        legend: { show: true, live: false },
        cursor: { drag: { x: false, y: false }, points: { show: false } },
        scales: { x: { time: false }, ...(zero ? { y: { range: [0, 1] } } : {}) },
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
