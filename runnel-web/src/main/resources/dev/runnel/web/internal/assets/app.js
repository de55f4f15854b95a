// Runnel dashboard: the CSRF token on every htmx request, polls that hold while the tab is hidden
// or jobs are selected, confirmations, the error page's Back link, select-all, and the throughput
// chart. Behaviour lives here, none in the pages: the Content-Security-Policy allows no inline script.
(function () {
  var token = document.querySelector('meta[name="csrf-token"]');
  document.addEventListener('htmx:configRequest', function (e) {
    if (token) { e.detail.headers['X-CSRF-Token'] = token.content; }
  });
  // A poll (hx-trigger "every ...") waits while nobody looks, and the jobs list holds still while
  // jobs are selected: a refresh would drop the selection.
  document.addEventListener('htmx:confirm', function (e) {
    var elt = e.detail.elt;
    if (!/^every /.test(elt.getAttribute('hx-trigger') || '')) { return; }
    if (document.visibilityState !== 'visible' || elt.querySelector('input.sel:checked')) { e.preventDefault(); }
  });
  // <form data-confirm="Delete this job?">: asks before it posts.
  document.addEventListener('submit', function (e) {
    var form = e.target;
    if (form && form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) { e.preventDefault(); }
  });
  // <a data-back href="...">: back to the page before, or to the link's page when there is none.
  document.addEventListener('click', function (e) {
    var link = e.target && e.target.closest ? e.target.closest('a[data-back]') : null;
    if (link && window.history.length > 1) { e.preventDefault(); window.history.back(); }
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
