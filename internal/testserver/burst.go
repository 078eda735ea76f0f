package testserver

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// Answer is a login's status and resultCode, as "401/101".
type Answer string

// AnswerOf reads a response's status and resultCode.
func AnswerOf(r *Response) Answer {
	var body struct {
		ResultCode *int `json:"resultCode"`
	}
	if json.Unmarshal(r.Body, &body) != nil || body.ResultCode == nil {
		return Answer(fmt.Sprintf("%d/-", r.Status))
	}
	return Answer(fmt.Sprintf("%d/%d", r.Status, *body.ResultCode))
}

// LoginBurst sends wrong logins all at once, and the right ones as soon as
// after of the wrong ones have been answered with want (or all have been
// answered), while the rest are still under way: a parallel guess with the
// right password among the last sent. try sends login i (right: with the
// right password).
func LoginBurst(wrong, right, after int, want Answer, try func(i int, right bool) (*Response, error)) (wrongAnswers, rightAnswers []Answer, err error) {
	wrongAnswers, rightAnswers = make([]Answer, wrong), make([]Answer, right)
	var mu sync.Mutex
	var firstErr error
	answered, wanted := 0, 0
	enough := make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	send := func(i int, isRight bool, out *Answer, onAnswer func()) {
		defer wg.Done()
		r, err := try(i, isRight)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			*out = "error"
		} else {
			*out = AnswerOf(r)
		}
		onAnswer()
	}
	start := make(chan struct{})
	for i := range wrong {
		wg.Add(1)
		go func() {
			<-start
			send(i, false, &wrongAnswers[i], func() {
				if answered++; wrongAnswers[i] == want {
					wanted++
				}
				if wanted >= after || answered == wrong {
					once.Do(func() { close(enough) })
				}
			})
		}()
	}
	close(start)
	if wrong == 0 || after == 0 {
		once.Do(func() { close(enough) })
	}
	<-enough
	// On a busy machine the hashing gate may answer 429 to so many guesses
	// that fewer than after were checked when the burst is over; then the
	// right passwords would not come after `after` checked failures, which
	// is what the burst is for. Top up with wrong guesses one at a time
	// until they have (or one is answered otherwise: a lock).
	mu.Lock()
	short := wanted < after && firstErr == nil
	mu.Unlock()
	for extra := 0; short && extra < 4*after; extra++ {
		var a Answer
		wg.Add(1)
		send(wrong+right+extra, false, &a, func() {})
		wrongAnswers = append(wrongAnswers, a)
		switch {
		case a == want:
			wanted++
			short = wanted < after
		case !strings.HasPrefix(string(a), "429/"):
			short = false
		}
	}
	for i := range right {
		wg.Add(1)
		go send(wrong+i, true, &rightAnswers[i], func() {})
	}
	wg.Wait()
	return wrongAnswers, rightAnswers, firstErr
}
