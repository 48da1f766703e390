// Optional: shows the filter form and hides elements whose data-f-<dimension> value is
// unchecked. Without this script every table, chart and row stays visible.
(function () {
  "use strict";
  var form = document.getElementById("filters");
  if (!form) { return; }
  form.hidden = false;
  function apply() {
    var dims = {};
    var boxes = form.querySelectorAll("input[type=checkbox]");
    for (var i = 0; i < boxes.length; i++) {
      var c = boxes[i];
      dims[c.name] = dims[c.name] || {};
      dims[c.name][c.value] = c.checked;
    }
    var items = document.querySelectorAll("[data-f]");
    for (var j = 0; j < items.length; j++) {
      var el = items[j];
      var show = true;
      for (var d in dims) {
        var v = el.getAttribute("data-f-" + d);
        if (v !== null && dims[d][v] === false) { show = false; }
      }
      el.hidden = !show;
    }
  }
  form.addEventListener("change", apply);
  apply();
})();
