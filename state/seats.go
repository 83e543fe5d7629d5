package state

import "slices"

// Card numbers. The seed numbers a card by its seat in the queue, newest first, so a card found later
// moved every number under the person: the Stop hook's "/saver fix 1 fixes it" meant the build habit,
// and after `/saver check` the judge's new card was 1, which that same command then fixed. saverd gives
// a card its number when it is queued, the next after the highest card still open, and the number keeps
// meaning that card while it is open (protocol.md, "Differences from ContextSaver"). The queue (Cards)
// keeps the seed's order for everything else.

// Numbered is the open cards by number: position i holds the card numbered i+1, "" a number whose card
// was decided while a higher one is open. A card queued since the numbers were last kept (Seats) takes
// the next ones, in queue order.
func Numbered(s *State) []string { return seatsOf(s.Cards, s.Seats) }

// CardNumber is the number the pane draws beside a card; 0 when it is not open.
func CardNumber(s *State, id string) int {
	if id == "" {
		return 0
	}
	return slices.Index(Numbered(s), id) + 1
}

// keepSeats keeps the cards' numbers after every action (Reduce). Seats is replaced, never written in
// place, so a clone that shares it never sees a change.
func keepSeats(s *State) {
	if len(s.Cards) == 0 && len(s.Seats) == 0 {
		return
	}
	if seated(s.Cards, s.Seats) {
		return
	}
	s.Seats = seatsOf(s.Cards, s.Seats)
}

// seated reports whether seats numbers exactly the cards: every card has a number, every number a card.
func seated(cards, seats []string) bool {
	n := 0
	for _, id := range seats {
		if id == "" {
			continue
		}
		if !slices.Contains(cards, id) {
			return false
		}
		n++
	}
	return n == len(cards) && (len(seats) == 0 || seats[len(seats)-1] != "")
}

// seatsOf is seats with the cards that left taken out (the numbers above them kept), the cards not
// numbered yet given the next numbers in queue order, and no number past the highest open card.
func seatsOf(cards, seats []string) []string {
	if seated(cards, seats) {
		return seats
	}
	out := make([]string, len(seats), len(seats)+len(cards))
	for i, id := range seats {
		if id != "" && slices.Contains(cards, id) {
			out[i] = id
		}
	}
	for _, id := range cards {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
