package testserver

import (
	"encoding/json"
	"fmt"
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
	for i := range right {
		wg.Add(1)
		go send(wrong+i, true, &rightAnswers[i], func() {})
	}
	wg.Wait()
	return wrongAnswers, rightAnswers, firstErr
}
