package impact

import (
	"io"

	"github.com/saverd/saverd/internal/textout"
)

// Write writes the report as json or a table; pending writes only the subjects waiting for a decision
// (`saverd impact pending`), in JSON as {"pending": [...], "warnings": [...]}.
func (r *Report) Write(w io.Writer, format string, pending bool) error {
	switch {
	case pending && format == "table":
		return WritePendingTable(w, r.PendingSubjects())
	case pending:
		return textout.WriteJSON(w, struct {
			Pending  []PendingSubject `json:"pending"`
			Warnings []string         `json:"warnings"`
		}{r.PendingSubjects(), r.Warnings})
	case format == "table":
		return r.WriteTable(w)
	}
	return textout.WriteJSON(w, r)
}
