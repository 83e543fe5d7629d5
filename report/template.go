package report

import "html/template"

// pageTemplate is the whole page. html/template escapes every string from the logs (a project's name, a
// habit's reason) for where it lands, so a log's text never becomes markup.
var pageTemplate = template.Must(template.New("report").Funcs(funcs).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>saverd report</title>
<style>
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 980px; color: #1b1b1b; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
.muted { color: #666; }
.cards { display: flex; gap: 1em; flex-wrap: wrap; }
.card { border: 1px solid #ddd; border-radius: 6px; padding: 0.6em 1em; min-width: 9em; }
.card b { display: block; font-size: 1.4em; }
table { border-collapse: collapse; width: 100%; margin-top: 0.6em; }
th, td { text-align: left; padding: 0.25em 0.6em; border-bottom: 1px solid #eee; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.day-total td { font-weight: 600; border-bottom: 1px solid #ccc; }
svg { width: 100%; height: auto; }
svg text { font-size: 11px; fill: #444; }
.legend { display: flex; flex-wrap: wrap; gap: 0.4em 1.2em; font-size: 12px; margin-top: 0.3em; }
.swatch { display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.3em; vertical-align: -0.05em; }
details { margin-top: 0.6em; }
ul.warnings { font-size: 12px; color: #8a4b00; }
</style>
</head>
<body>
<h1>Where the money went</h1>
<p class="muted">saverd report · {{.Generated}} · costs at saverd's dated prices; a "+" leaves out calls of a model with no price</p>

<section id="totals" data-sessions="{{.Totals.Sessions}}" data-calls="{{.Totals.Calls}}" data-priced="{{exact .Totals.Priced}}" data-cost="{{opt .Totals.Cost}}" data-unpriced-tokens="{{.Totals.UnpricedTokens}}">
<div class="cards">
<div class="card">sessions<b>{{.Totals.Sessions}}</b></div>
<div class="card">API calls<b>{{.Totals.Calls}}</b></div>
<div class="card">tokens<b>{{tokens .Totals.Tokens.Total}}</b></div>
<div class="card">cost<b>{{cost .Totals.Cost .Totals.Priced}}</b></div>
</div>
{{if .Totals.Unpriced}}<p class="muted">No price for {{range $i, $m := .Totals.Unpriced}}{{if $i}}, {{end}}{{$m}}{{end}}: {{tokens .Totals.UnpricedTokens}} tokens are not in the cost.</p>{{end}}
</section>

<h2>Cost per day, by agent and model</h2>
<section id="daily">
{{template "chart" .DailyChart}}
<details><summary>The figures</summary>
<table>
<tr><th>day</th><th>agent · model</th><th class="n">calls</th><th class="n">cost</th></tr>
{{range .Daily}}{{$day := .Key}}{{range .Series}}<tr class="share" data-day="{{$day}}" data-series="{{.Name}}" data-usd="{{exact .Priced}}" data-priced="{{if .Cost}}true{{else}}false{{end}}"><td>{{$day}}</td><td>{{.Name}}</td><td class="n">{{.Calls}}</td><td class="n">{{cost .Cost .Priced}}</td></tr>
{{end}}<tr class="day-total" data-day="{{.Key}}" data-usd="{{exact .Priced}}"><td>{{.Key}}</td><td>all</td><td></td><td class="n">{{usd .Priced}}</td></tr>
{{end}}</table>
</details>
</section>

<h2>The costliest sessions</h2>
<section id="top">
<table>
<tr><th>start</th><th>agent</th><th>project</th><th>session</th><th class="n">calls</th><th class="n">tokens</th><th class="n">cost</th></tr>
{{range .Top}}<tr data-session="{{.ID}}" data-usd="{{exact .Priced}}" data-calls="{{.Calls}}"><td>{{.Start}}</td><td>{{.Harness}}</td><td>{{.Project}}</td><td><code>{{.ID}}</code></td><td class="n">{{.Calls}}</td><td class="n">{{tokens .Tokens}}</td><td class="n">{{cost .Cost .Priced}}</td></tr>
{{else}}<tr><td colspan="7" class="muted">No sessions in the span asked for.</td></tr>
{{end}}</table>
</section>

<h2>What the spend produced: cost per kept commit</h2>
<section id="impact">
{{with .Impact}}
<p class="muted">Commits linked to sessions by <code>saverd impact</code>'s rules: {{.Linked}} sessions linked, {{.Pending}} waiting for a decision, {{usd .UnlinkedCost}} spent in sessions linked to no commit.</p>
<table>
<tr><th>repository</th><th class="n">cost</th><th class="n">kept commits</th><th class="n">reverted</th><th class="n">lines added</th><th class="n">per kept commit</th><th class="n">per 100 lines</th></tr>
{{range .Repos}}<tr class="repo" data-repo="{{.Repo}}" data-cost="{{exact .Cost}}" data-kept="{{.CommitsKept}}" data-lines="{{.LinesAdded}}" data-per-commit="{{opt .PerCommit}}" data-per-hundred="{{opt .Per100}}"><td>{{.Repo}}</td><td class="n">{{usd .Cost}}</td><td class="n">{{.CommitsKept}}</td><td class="n">{{.CommitsReverted}}</td><td class="n">{{.LinesAdded}}</td><td class="n">{{optUSD .PerCommit}}</td><td class="n">{{optUSD .Per100}}</td></tr>
{{else}}<tr><td colspan="7" class="muted">No session was linked to a commit.</td></tr>
{{end}}</table>
<h3>Cost per kept commit, week by week</h3>
{{template "chart" .Chart}}
<table>
<tr><th>repository</th><th>week of</th><th class="n">cost</th><th class="n">kept commits</th><th class="n">lines added</th><th class="n">per kept commit</th><th class="n">per 100 lines</th></tr>
{{range .Weeks}}<tr class="week" data-repo="{{.Repo}}" data-week="{{.Week}}" data-cost="{{exact .Cost}}" data-kept="{{.CommitsKept}}" data-lines="{{.LinesAdded}}" data-per-commit="{{opt .PerCommit}}" data-per-hundred="{{opt .Per100}}"><td>{{.Repo}}</td><td>{{.Week}}</td><td class="n">{{usd .Cost}}</td><td class="n">{{.CommitsKept}}</td><td class="n">{{.LinesAdded}}</td><td class="n">{{optUSD .PerCommit}}</td><td class="n">{{optUSD .Per100}}</td></tr>
{{end}}</table>
{{else}}<p class="muted">No impact report: no git repository was scanned.</p>{{end}}
</section>

<h2>Habits found and fixed</h2>
<section id="habits" data-sessions="{{.Habits.Sessions}}" data-saved-usd="{{exact .Habits.SavedUSD}}" data-judge-usd="{{exact .Habits.JudgeUSD}}" data-instructions-usd="{{exact .Habits.InstructionsUSD}}" data-net-usd="{{exact .Habits.NetUSD}}" data-saved-tokens="{{.Habits.SavedTokens}}" data-judge-tokens="{{.Habits.JudgeTokens}}">
{{if .Habits.Sessions}}
<div class="cards">
<div class="card">sessions watched<b>{{.Habits.Sessions}}</b></div>
<div class="card">saved<b>{{usd .Habits.SavedUSD}}</b></div>
<div class="card">judge<b>{{usd .Habits.JudgeUSD}}</b></div>
<div class="card">instructions<b>{{usd .Habits.InstructionsUSD}}</b></div>
<div class="card">net<b>{{usd .Habits.NetUSD}}</b></div>
</div>
<p class="muted">Savings are the cache reads the fixes spared on the turns that happened, at each turn's price, net of what the judge's forks and the instructions saverd sent cost (the pane's Net row).{{if .Habits.Unpriced}} {{.Habits.Unpriced}} sessions had no price: their {{int .Habits.SavedTokens}} saved and {{int .Habits.JudgeTokens}} judge tokens are counted in tokens only.{{end}}</p>
{{template "chart" .Habits.Chart}}
<table>
<tr><th>habit</th><th>why</th><th class="n">sessions</th><th class="n">fixed</th><th class="n">ignored</th><th class="n">tokens saved</th><th class="n">saved</th></tr>
{{range .Habits.Habits}}<tr class="habit" data-habit="{{.ID}}" data-found="{{.Found}}" data-fixed="{{.Fixed}}" data-ignored="{{.Ignored}}" data-saved-tokens="{{exact .SavedTokens}}" data-saved-usd="{{exact .SavedUSD}}"><td><code>{{.ID}}</code></td><td>{{.Why}}</td><td class="n">{{.Found}}</td><td class="n">{{.Fixed}}</td><td class="n">{{.Ignored}}</td><td class="n">{{f0 .SavedTokens}}</td><td class="n">{{usd .SavedUSD}}</td></tr>
{{end}}</table>
{{else}}<p class="muted">The daemon's sessions log has no session with saverd's findings in this span (sessions saverd watched are written there when they end).</p>{{end}}
</section>
{{if .Warnings}}
<h2>Warnings</h2>
<p class="muted">Each says what it did to the figures above: what it names left out of them, or counted once.</p>
<ul class="warnings">{{range .Warnings}}<li>{{.}}</li>{{end}}</ul>
{{end}}
</body>
</html>
{{define "chart"}}{{if .Empty}}<p class="muted">Nothing to draw.</p>{{else}}<svg viewBox="0 0 {{.Width}} {{.Height}}" role="img" xmlns="http://www.w3.org/2000/svg">
<line x1="56" y1="12" x2="56" y2="220" stroke="#999"/><line x1="56" y1="220" x2="748" y2="220" stroke="#999"/>
{{range .Bars}}<rect x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}" fill="{{.Fill}}"><title>{{.Title}}</title></rect>
{{end}}{{range .Lines}}<polyline points="{{.Points}}" fill="none" stroke="{{.Stroke}}" stroke-width="2"/>{{range .Dots}}<rect x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}" fill="{{.Fill}}"><title>{{.Title}}</title></rect>{{end}}
{{end}}{{range .Labels}}<text x="{{.X}}" y="{{.Y}}" text-anchor="{{.Anchor}}">{{.Text}}</text>
{{end}}</svg>
{{if .Legend}}<div class="legend">{{range .Legend}}<span><span class="swatch" style="background: {{.Fill}}"></span>{{.Name}}</span>{{end}}</div>{{end}}{{end}}{{end}}
`))
