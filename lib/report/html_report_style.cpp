// The HTML report's style sheet: system fonts only, since the page must not fetch anything.

#include "report/html_report_page.hpp"

namespace gpusched::report {

std::string_view html_report_style() {
  return R"CSS(
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 24px 40px;
       color: #1d2330; background: #fff; }
header { position: sticky; top: 0; background: #fff; padding: 8px 0; z-index: 1;
         border-bottom: 1px solid #d8dce3; }
h1 { font-size: 20px; margin: 4px 0; }
h2 { font-size: 17px; margin: 28px 0 8px; }
h3 { font-size: 14px; margin: 8px 0 4px; }
nav a { margin-right: 12px; }
.controls { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin-top: 6px; }
#search { width: 320px; padding: 4px 6px; }
.muted, #subtitle { color: #5b6475; }
table { border-collapse: collapse; font-size: 13px; }
th, td { border-bottom: 1px solid #e3e6eb; padding: 3px 8px; text-align: left; vertical-align: top; }
td:last-child { white-space: pre-wrap; overflow-wrap: anywhere; }
.node { margin: 10px 0 14px; }
.node-head { display: flex; gap: 12px; align-items: baseline; }
.pool { background: #eef1f6; border-radius: 3px; padding: 0 6px; }
svg.timeline { display: block; font-size: 11px; }
.tick { stroke: #9aa3b2; }
.tick-label { fill: #5b6475; text-anchor: middle; }
.row-label { fill: #1d2330; }
.row-rule { stroke: #eef1f6; }
.bar { stroke: #30384a; stroke-width: 0.5; }
.bar.match, .wait.match { stroke: #d10f5a; stroke-width: 2.5; }
.bar-label { fill: #111; pointer-events: none; }
.wait { fill: #f3b54a; }
.wait.open { fill: #e0524b; }
.preemption line { stroke: #d10f5a; stroke-width: 1.5; stroke-dasharray: 3 2; }
.preemption path { fill: #d10f5a; }
.series { fill: none; stroke-width: 1.5; }
.series.area { stroke-width: 1; fill-opacity: 0.25; }
.series.area.schedulable { fill: #7a8aa6; }
.series.area.running { fill: #2f9e5b; }
.series.schedulable { stroke: #7a8aa6; }
.series.allocated { stroke: #2a7de1; }
.series.running { stroke: #2f9e5b; }
.series.pending { stroke: #e0524b; }
.legend .key { margin-right: 14px; }
.legend .key::before { content: ""; display: inline-block; width: 14px; height: 3px;
                       margin: 0 4px 3px 0; vertical-align: middle; background: currentColor; }
.key.schedulable { color: #7a8aa6; } .key.allocated { color: #2a7de1; }
.key.running { color: #2f9e5b; } .key.pending { color: #e0524b; }
.pager { margin: 6px 0; }
.stuck { border-left: 3px solid #e0524b; padding: 2px 12px; margin: 10px 0; }
.stuck .message { font-family: ui-monospace, monospace; white-space: pre-wrap; }
.stuck .claim { font-family: ui-monospace, monospace; margin: 2px 0; }
.layer { background: #fde8e7; border-radius: 3px; padding: 0 6px; font-weight: 600; }
#render-status { color: #b00020; font-weight: 600; }
)CSS";
}

}  // namespace gpusched::report
