#include "reports/report_summary.h"

#include "reports/compare_summary.h"
#include "reports/table.h"

namespace moq::reports {

namespace {

// The change shown beside a regressed case: the last file's instructions change, else why.
std::string regression_text(const CompareRow& row) {
  const CompareCell& last = row.cells.back();
  if (last.failed) return "failed";
  std::string out;
  if (last.instructions_change_pct)
    out = "instructions " + format_pct(*last.instructions_change_pct);
  const CompareCell& base = row.cells.front();
  if (base.allocations && last.allocations && *base.allocations != *last.allocations) {
    if (!out.empty()) out += ", ";
    out +=
        "allocations " + format_count(*base.allocations) + " -> " + format_count(*last.allocations);
  }
  return out;
}

}  // namespace

std::string html_summary_section(const Comparison& comparison) {
  const CompareSummary summary = summarize(comparison);
  std::string out = "<section id=\"summary\">\n<h2>Summary</h2>\n<p class=\"summary\">" +
                    html_escape(summary_line(summary)) + "</p>\n";
  if (summary.regressed == 0) return out + "<p class=\"note\">no case regressed</p>\n</section>\n";
  out += "<p><b>Regressed in " + html_escape(summary.judged_label) + "</b> (" +
         std::to_string(summary.regressed) + ", largest change first)</p>\n<ul class=\"ids\">\n";
  for (const CompareRow& row : comparison.rows) {
    if (row.status == CaseStatus::kNew || row.verdict != RowVerdict::kRegressed) continue;
    out += "<li class=\"regressed\">" + html_escape(row.id) + ": " +
           html_escape(regression_text(row)) + "</li>\n";
  }
  return out + "</ul>\n</section>\n";
}

std::string case_filter_script() {
  return R"js(<script>
(function () {
  var tables = document.querySelectorAll('.cases table');
  if (tables.length === 0) return;
  var box = document.createElement('input');
  box.type = 'search';
  box.id = 'case-filter';
  box.placeholder = 'words in the case id';
  var count = document.createElement('span');
  count.id = 'case-filter-count';
  var label = document.createElement('label');
  label.className = 'filter';
  label.appendChild(document.createTextNode('Filter cases: '));
  label.appendChild(box);
  label.appendChild(count);
  var first = document.querySelector('.cases');
  first.parentNode.insertBefore(label, first);
  function caseColumn(table) {
    var heads = table.querySelectorAll('thead th');
    for (var i = 0; i < heads.length; i++) if (heads[i].textContent === 'case') return i;
    return 0;
  }
  function apply() {
    var words = box.value.toLowerCase().split(/\s+/).filter(function (w) { return w; });
    var shown = 0, total = 0;
    tables.forEach(function (table) {
      var col = caseColumn(table);
      table.querySelectorAll('tbody tr').forEach(function (row) {
        var cell = row.children[col];
        var id = cell ? cell.textContent.toLowerCase() : '';
        var match = words.every(function (w) { return id.indexOf(w) >= 0; });
        row.hidden = !match;
        total++;
        if (match) shown++;
      });
    });
    count.textContent = ' ' + shown + ' of ' + total + ' rows';
    count.setAttribute('data-shown', String(shown));
  }
  function fromHash() {
    var h = window.location.hash;
    if (h.indexOf('#filter=') === 0) box.value = decodeURIComponent(h.slice(8));
    apply();
  }
  box.addEventListener('input', function () {
    try { history.replaceState(null, '', '#filter=' + encodeURIComponent(box.value)); } catch (e) {}
    apply();
  });
  window.addEventListener('hashchange', fromHash);
  fromHash();
})();
</script>
)js";
}

}  // namespace moq::reports
