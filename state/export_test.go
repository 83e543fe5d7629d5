package state

// The unexported steps the tests of package state_test call directly.
var (
	Relapsed = relapsed
	SpendRun = spendRun
)
