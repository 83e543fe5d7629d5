package impact

import (
	"context"
	"time"
)

// PendingSubject is a commit_link question waiting for an answer: did this
// session produce these commits? Answer it with Decide(subject, p).
type PendingSubject struct {
	Subject   string        `json:"subject"`
	SessionID string        `json:"session_id"`
	Harness   string        `json:"harness"`
	Start     string        `json:"start"` // RFC 3339
	End       string        `json:"end"`
	Calls     int           `json:"calls"`
	Cost      float64       `json:"cost"`
	Repos     []PendingRepo `json:"repos"`
}

// PendingRepo is the part of a pending subject in one repo.
type PendingRepo struct {
	RepoLabel string       `json:"repo_label"`
	Commits   []CommitInfo `json:"commits"`
}

// Pending runs Query and returns the subjects waiting for a commit_link
// decision, in session start order. Its warnings are dropped; call Query
// and PendingSubjects to have both.
func Pending(ctx context.Context, opt Options) ([]PendingSubject, error) {
	r, err := Query(ctx, opt)
	if err != nil {
		return nil, err
	}
	return r.PendingSubjects(), nil
}

// PendingSubjects returns the subjects of the report's pending records.
func (r *Report) PendingSubjects() []PendingSubject {
	return r.pending
}

// pendingSubjects groups pending records (records are in session order) by
// subject: a session with candidates in several repos asks one question.
func pendingSubjects(recs []Record) []PendingSubject {
	out := []PendingSubject{}
	index := make(map[string]int)
	for _, r := range recs {
		if r.LinkP != nil {
			continue
		}
		i, ok := index[r.Subject]
		if !ok {
			s := r.session
			i = len(out)
			index[r.Subject] = i
			out = append(out, PendingSubject{
				Subject:   r.Subject,
				SessionID: s.ID,
				Harness:   s.Harness,
				Start:     s.Start.UTC().Format(time.RFC3339),
				End:       s.End.UTC().Format(time.RFC3339),
				Calls:     s.Calls,
				Cost:      round6(s.Cost),
			})
		}
		out[i].Repos = append(out[i].Repos, PendingRepo{RepoLabel: r.RepoLabel, Commits: r.Details})
	}
	return out
}
