/* hpckg: offline filtering and sorting of the site's tables. No network, no libraries.
 *
 * Filters: every <select data-filter=KEY> in #filters keeps the rows of #systems whose
 * data-KEY attribute (a space-separated list of keys) contains the chosen value; the
 * search box matches data-name. The state mirrors the query string (?country=CN), so a
 * filtered view can be bookmarked and opened again.
 * Sorting: every table.sortable gets a button in each header cell.
 */
(function () {
  "use strict";

  function rowsOf(table) { return Array.prototype.slice.call(table.tBodies[0].rows); }

  function cellValue(row, index, type) {
    var cell = row.cells[index];
    if (!cell) { return type === "number" ? -Infinity : ""; }
    var raw = cell.hasAttribute("data-sort") ? cell.getAttribute("data-sort") : cell.textContent;
    if (type === "number") {
      var n = parseFloat(String(raw).replace(/,/g, ""));
      return isNaN(n) ? -Infinity : n;
    }
    return String(raw).trim().toLowerCase();
  }

  function makeSortable(table) {
    var headers = table.tHead ? table.tHead.rows[0].cells : [];
    Array.prototype.forEach.call(headers, function (th, index) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      button.textContent = th.textContent;
      th.textContent = "";
      th.appendChild(button);
      button.addEventListener("click", function () {
        var type = th.getAttribute("data-type") || "text";
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(headers, function (other) { other.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var rows = rowsOf(table).map(function (row, i) { return [cellValue(row, index, type), i, row]; });
        rows.sort(function (a, b) {
          if (a[0] < b[0]) { return ascending ? -1 : 1; }
          if (a[0] > b[0]) { return ascending ? 1 : -1; }
          return a[1] - b[1];
        });
        var body = table.tBodies[0];
        rows.forEach(function (item) { body.appendChild(item[2]); });
      });
    });
  }

  function setupFilters(form, table) {
    var selects = Array.prototype.slice.call(form.querySelectorAll("select[data-filter]"));
    var search = form.querySelector("#f-text");
    var shown = document.getElementById("shown-count");

    function apply(updateUrl) {
      var text = search ? search.value.trim().toLowerCase() : "";
      var count = 0;
      rowsOf(table).forEach(function (row) {
        var keep = !text || (row.getAttribute("data-name") || "").indexOf(text) !== -1;
        selects.forEach(function (select) {
          if (keep && select.value) {
            var values = (row.getAttribute("data-" + select.getAttribute("data-filter")) || "").split(" ");
            keep = values.indexOf(select.value) !== -1;
          }
        });
        row.hidden = !keep;
        if (keep) { count += 1; }
      });
      if (shown) { shown.textContent = String(count); }
      if (updateUrl && window.history && window.history.replaceState) {
        var params = [];
        if (text) { params.push("q=" + encodeURIComponent(text)); }
        selects.forEach(function (s) {
          if (s.value) { params.push(encodeURIComponent(s.name) + "=" + encodeURIComponent(s.value)); }
        });
        try {
          window.history.replaceState(null, "", params.length ? "?" + params.join("&") : window.location.pathname);
        } catch (e) { /* file:// pages may refuse; filtering still works */ }
      }
    }

    // Restore a bookmarked filter from the query string.
    var query = window.location.search.replace(/^\?/, "").split("&");
    query.forEach(function (pair) {
      if (!pair) { return; }
      var parts = pair.split("=");
      var key = decodeURIComponent(parts[0]);
      var value = decodeURIComponent((parts[1] || "").replace(/\+/g, " "));
      if (key === "q" && search) { search.value = value; }
      selects.forEach(function (s) { if (s.name === key) { s.value = value; } });
    });

    selects.forEach(function (s) { s.addEventListener("change", function () { apply(true); }); });
    if (search) { search.addEventListener("input", function () { apply(true); }); }
    form.addEventListener("reset", function () { window.setTimeout(function () { apply(true); }, 0); });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.hidden = false;
    apply(false);
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), makeSortable);
    var form = document.getElementById("filters");
    var table = document.getElementById("systems");
    if (form && table) { setupFilters(form, table); }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
}());
