// Runnel dashboard: the CSRF token on every htmx request, select-all, and the throughput chart.
(function () {
  var token = document.querySelector('meta[name="csrf-token"]');
  document.addEventListener('htmx:configRequest', function (e) {
    if (token) { e.detail.headers['X-CSRF-Token'] = token.content; }
  });
  document.addEventListener('change', function (e) {
    if (e.target && e.target.id === 'select-all') {
      document.querySelectorAll('#jobs-table input.sel').forEach(function (c) { c.checked = e.target.checked; });
    }
  });
  function css(name) { return getComputedStyle(document.documentElement).getPropertyValue(name).trim(); }
  function chart() {
    var el = document.getElementById('chart');
    if (!el || typeof uPlot === 'undefined') { return; }
    var plot = null;
    function load() {
      if (document.visibilityState !== 'visible') { return; }
      fetch(el.dataset.src, { headers: { 'Accept': 'application/json' } }).then(function (r) { return r.json(); })
        .then(function (d) {
          var data = [d.minutes, d.completed, d.failed];
          if (plot) { plot.setData(data); return; }
          var opts = {
            width: el.clientWidth || 600, height: 220,
            series: [{}, { label: 'completed', stroke: css('--completed'), width: 2 },
                     { label: 'failed', stroke: css('--discarded'), width: 2 }],
            axes: [{ stroke: css('--fg') }, { stroke: css('--fg') }]
          };
          plot = new uPlot(opts, data, el);
          window.addEventListener('resize', function () { plot.setSize({ width: el.clientWidth, height: 220 }); });
        });
    }
    load();
    setInterval(load, 15000);
  }
  // After every deferred script, uPlot's among them, has run.
  if (document.readyState === 'complete') { chart(); } else { window.addEventListener('load', chart); }
})();
