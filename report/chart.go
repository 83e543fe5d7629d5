package report

import (
	"math"
	"strconv"
)

// chart is an SVG chart laid out here, so the page needs no script and no library: bars (rects), lines
// (polylines with their points), axis labels, and a legend.
type chart struct {
	Width, Height int
	Bars          []bar
	Lines         []line
	Labels        []label
	Legend        []legendItem
	Empty         bool
}

type bar struct {
	X, Y, W, H float64
	Fill       string
	Title      string
}

type line struct {
	Points string
	Stroke string
	Dots   []bar // each point, as a small square with its title
}

type label struct {
	X, Y   float64
	Text   string
	Anchor string
}

type legendItem struct {
	Fill, Name string
}

// palette is eight colours told apart in print and by most colour-blind readers (Okabe and Ito's).
var palette = []string{"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"}

const (
	chartW, chartH         = 760, 260
	padLeft, padBottom     = 56, 40
	padTop, padRight       = 12, 12
	plotW, plotH           = chartW - padLeft - padRight, chartH - padTop - padBottom
	maxXLabels         int = 12
)

// dailyChart stacks each day's spend by harness and model.
func dailyChart(days []day) chart {
	return stacked(days, inDollars, func(k string) string { return k[len("2006-"):] })
}

// stacked draws a bar per column (a day, a habit), its parts stacked.
func stacked(days []day, u unit, xLabel func(string) string) chart {
	c := chart{Width: chartW, Height: chartH}
	colour := map[string]string{}
	var top float64
	for _, d := range days {
		top = max(top, d.Priced)
		for _, s := range d.Series {
			if _, ok := colour[s.Name]; !ok {
				colour[s.Name] = palette[len(colour)%len(palette)]
				c.Legend = append(c.Legend, legendItem{Fill: colour[s.Name], Name: s.Name})
			}
		}
	}
	if len(days) == 0 || top <= 0 {
		c.Empty = true
		return c
	}
	top = niceCeil(top)
	c.Labels = append(c.Labels, yAxis(top, u)...)
	slot := float64(plotW) / float64(len(days))
	every := max(1, (len(days)+maxXLabels-1)/maxXLabels)
	for i, d := range days {
		x := padLeft + float64(i)*slot + slot*0.15
		y := float64(padTop + plotH)
		for _, s := range d.Series {
			h := s.Priced / top * plotH
			y -= h
			c.Bars = append(c.Bars, bar{X: x, Y: y, W: slot * 0.7, H: h, Fill: colour[s.Name],
				Title: d.Key + " " + s.Name + ": " + u.figure(s.Priced)})
		}
		if i%every == 0 {
			c.Labels = append(c.Labels, label{X: x + slot*0.35, Y: padTop + plotH + 16, Text: xLabel(d.Key), Anchor: "middle"})
		}
	}
	return c
}

// lineChart draws one line per series over the shared x keys; a point with no value breaks nothing, it
// is left out of its line.
func lineChart(keys []string, series []string, value func(s, k string) (float64, bool), u unit) chart {
	c := chart{Width: chartW, Height: chartH}
	var top float64
	for _, s := range series {
		for _, k := range keys {
			if v, ok := value(s, k); ok {
				top = max(top, v)
			}
		}
	}
	if len(keys) == 0 || top <= 0 {
		c.Empty = true
		return c
	}
	top = niceCeil(top)
	c.Labels = append(c.Labels, yAxis(top, u)...)
	slot := float64(plotW) / float64(len(keys))
	every := max(1, (len(keys)+maxXLabels-1)/maxXLabels)
	for i, k := range keys {
		if i%every == 0 {
			c.Labels = append(c.Labels, label{X: padLeft + slot*(float64(i)+0.5), Y: padTop + plotH + 16, Text: k, Anchor: "middle"})
		}
	}
	for n, s := range series {
		l := line{Stroke: palette[n%len(palette)]}
		for i, k := range keys {
			v, ok := value(s, k)
			if !ok {
				continue
			}
			x, y := padLeft+slot*(float64(i)+0.5), padTop+plotH-v/top*plotH
			l.Points += strconv.FormatFloat(x, 'f', 1, 64) + "," + strconv.FormatFloat(y, 'f', 1, 64) + " "
			l.Dots = append(l.Dots, bar{X: x - 3, Y: y - 3, W: 6, H: 6, Fill: l.Stroke, Title: s + " " + k + ": " + u.figure(v)})
		}
		c.Lines = append(c.Lines, l)
		c.Legend = append(c.Legend, legendItem{Fill: l.Stroke, Name: s})
	}
	return c
}

// unit is what a chart's values are. A tooltip writes one value as it is (figure); an axis writes its
// three labels alike (axis).
type unit int

const (
	inDollars unit = iota
	inTokens
)

// figure is one value as a tooltip writes it.
func (u unit) figure(v float64) string {
	if u == inDollars {
		return money(v)
	}
	return tokenCount(v)
}

// axis writes v on an axis whose top is top: dollars with the decimals the half needs, so the three
// labels share them ($0.000 $0.025 $0.050, not $0.00 $0.025 $0.05).
func (u unit) axis(top float64) func(v float64) string {
	if u != inDollars {
		return tokenCount
	}
	decimals, half := 2, top/2
	for ; decimals < 8; decimals++ { // the fewest that write the half exactly
		if v := half * math.Pow10(decimals); math.Abs(v-math.Round(v)) < 1e-6 {
			break
		}
	}
	return func(v float64) string { return "$" + strconv.FormatFloat(v, 'f', decimals, 64) }
}

// yAxis labels 0, a half and the top of the scale.
func yAxis(top float64, u unit) []label {
	write := u.axis(top)
	var out []label
	for _, f := range []float64{0, 0.5, 1} {
		out = append(out, label{X: padLeft - 6, Y: padTop + plotH - f*plotH + 4, Text: write(f * top), Anchor: "end"})
	}
	return out
}

// niceCeil is the smallest of 1, 2, 2.5 or 5 times a power of ten at or above v.
func niceCeil(v float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

// money is a chart's dollar figure: cents, and a tenth of a cent below a dollar where cents would round
// it (a day's $0.093, not $0.09), so an axis's $0.20 and $0.10 keep the $0.00 beside them in step.
func money(v float64) string {
	if v > 0 && v < 0.0005 {
		return "<$0.001" // not $0.000: it cost something
	}
	if v != 0 && v < 1 && math.Abs(v*100-math.Round(v*100)) > 1e-9 {
		return "$" + strconv.FormatFloat(v, 'f', 3, 64)
	}
	return "$" + strconv.FormatFloat(v, 'f', 2, 64)
}

func tokenCount(v float64) string {
	switch {
	case v >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', 2, 64) + "M"
	case v >= 1e3:
		return strconv.FormatFloat(v/1e3, 'f', 1, 64) + "k"
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}
