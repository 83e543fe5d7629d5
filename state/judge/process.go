package judge

import (
	"regexp"
	"strings"

	"github.com/saverd/saverd/state"
)

// BuildProcessPrompt fills the process prompt with this session's digest; aliases is the naming the
// digest prints (nil: Aliases(s)), for ParseProcessReply.
func BuildProcessPrompt(s *state.State, aliases map[string]string) string {
	return fill(processPrompt, map[string]string{"DIGEST": Digest(s, aliases)})
}

// pace is complaints about pace as the person types them, matched on the lowered text.
var pace = []*regexp.Regexp{
	regexp.MustCompile(`\b(taking|takes|took|take) (so |way |far )?(forever|ages)\b`),
	regexp.MustCompile(`\b(taking|takes|took) (so |way |far )?too long\b`),
	regexp.MustCompile(`\b(this|it|that)('s| is| was)? (taking )?(way |far )?too long\b`),
	regexp.MustCompile(`\bwhy (is (this|it) )?(so |this )?slow\b`),
	regexp.MustCompile(`\b(so|too) slow\b`),
	regexp.MustCompile(`\bhurry( up)?\b`),
	regexp.MustCompile(`\bspeed (this|it|things) up\b`),
	regexp.MustCompile(`\bbeen ages\b`),
	regexp.MustCompile(`\bwhat('s| is) taking so long\b`),
	regexp.MustCompile(`\bstill (not done|waiting)\b`),
	regexp.MustCompile(`\b(take|takes|taking|took) (you |it |this )?so long\b`),
	regexp.MustCompile(`\b(should|ought to) (have been|be) (much |way |a lot )?faster\b`),
	regexp.MustCompile(`\b(expensive|pricey|costly) and slow\b`),
	regexp.MustCompile(`\bslow and (expensive|pricey|costly)\b`),
}

// IsPace reports whether a typed prompt reads as a complaint about pace: 'this is taking forever',
// 'why so slow'. The text is lowered by Go's rules (strings.ToLower).
func IsPace(text string) bool {
	lower := strings.ToLower(text)
	for _, re := range pace {
		if re.MatchString(lower) {
			return true
		}
	}
	return false
}

// ShouldProcess reports whether a process run may start: none is running, the judges' budget is not
// spent (state.BudgetOf), something happened since the last one, and the clock has waited
// ProcessClockMs × backoff — the clock trigger always, an event trigger only once the judge is over its
// budget share (backoff above 1).
func ShouldProcess(s *state.State, now int64, trigger state.ProcessTrigger) bool {
	p := &s.Process
	if p.Running || s.Seq <= p.LastAtSeq || state.BudgetOf(s).Over {
		return false
	}
	since := p.LastAtMs
	if since <= 0 {
		since = now
		if at, ok := firstAt(s); ok {
			since = at
		}
	}
	waited := now-since >= state.ProcessClockMs*p.Backoff
	if trigger == state.TriggerClock || p.Backoff > 1 {
		return waited
	}
	return true
}
