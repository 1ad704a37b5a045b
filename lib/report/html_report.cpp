#include "gpusched/report/html_report.hpp"

#include <string>
#include <string_view>

#include "report/html_report_data.hpp"
#include "report/html_report_page.hpp"
#include "report/xml_text.hpp"

namespace gpusched::report {
namespace {

// JSON inside <script>: the HTML parser ends the element at the first "</script" whatever the
// JSON means, and "<!--" changes how it reads on. '<' can only occur inside JSON strings, where
// "\u003c" means the same character, so escaping it keeps the document and leaves the parser
// nothing to see; '>' and '&' are escaped alike, as template engines do, so that no markup-like
// text survives in the page source.
std::string script_safe(std::string_view json) {
  std::string out;
  out.reserve(json.size());
  for (const char c : json) {
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else {
      out += c;
    }
  }
  return out;
}

// The sections the script fills; without JavaScript the page says so.
constexpr std::string_view kBody = R"HTML(<header>
<h1 id="title"></h1>
<p id="subtitle"></p>
<div class="controls">
<input id="search" type="search" placeholder="Filter by node or pod name, event text">
<button id="zoom-in" type="button">zoom in</button>
<button id="zoom-out" type="button">zoom out</button>
<button id="pan-left" type="button">&#8592;</button>
<button id="pan-right" type="button">&#8594;</button>
<button id="zoom-reset" type="button">whole run</button>
<span class="muted">time shown: <span id="view"></span></span>
</div>
<nav><a href="#allocation">Allocation</a><a href="#nodes">Nodes</a><a href="#waits">Pending intervals</a><a href="#preemptions">Preemptions</a><a href="#stuck">Pending at the end</a><a href="#claims" id="claims-link">Resource claims</a><a href="#events">Events</a><a href="#summary">Summary</a></nav>
</header>
<noscript><p>This report is drawn by its inline script: open it with JavaScript enabled.</p></noscript>
<div id="render-status" data-done="0" data-errors="0" hidden></div>
<section id="allocation"><h2>Allocation over time</h2><div id="gpu-chart"></div><div id="pods-chart"></div><h3>Resource-hours over the run</h3><div id="resources"></div></section>
<section id="nodes"><h2>Nodes: who held what when</h2><p class="muted">A bar per pod from the moment it started holding the node (and, below, each GPU) until it ended or was deleted; dashed lines are preemptions (hover for victims and preemptor).</p><div id="node-list"></div></section>
<section id="waits"><h2>Pending intervals</h2><p class="muted">From each pod's creation until it started on a node, ended or was deleted; red: still pending at the end.</p><div id="pending-list"></div></section>
<section id="preemptions"><h2>Preemptions</h2><div id="preemption-list"></div></section>
<section id="stuck"><h2>Pending at the end</h2><div id="stuck-list"></div></section>
<section id="claims"><h2>Resource claims</h2><p class="muted">Each ResourceClaim as the run left it: the devices allocated to it (request=driver/pool/device), the node they are on and the pods it is reserved for.</p><div id="claim-list"></div></section>
<section id="events"><h2>Events</h2><div id="event-list"></div></section>
<section id="summary"><h2>Summary</h2><div id="metrics"></div></section>
)HTML";

}  // namespace

void write_html_report(std::ostream& out, const SimulationResult& result,
                       const HtmlReportOptions& options) {
  // Invalid UTF-8 in a scenario's text becomes U+FFFD instead of failing the report.
  const std::string data =
      html_report_data(result, options)
          .dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<title>" << xml_escaped("gpusched replay: " + result.scenario, false) << "</title>\n"
      << "<style>" << html_report_style() << "</style>\n</head>\n<body>\n"
      << kBody << "<script type=\"application/json\" id=\"report-data\">" << script_safe(data)
      << "</script>\n<script>" << html_report_script() << "</script>\n</body>\n</html>\n";
}

}  // namespace gpusched::report
