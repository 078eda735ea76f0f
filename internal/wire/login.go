package wire

import (
	"bytes"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// DecodeLogin reads the body of POST /login. An empty body is an empty
// request: the credentials may come in a Basic Authorization header.
func DecodeLogin(dec *jsoncodec.Decoder, body []byte) (contract.LoginRequest, error) {
	var in contract.LoginRequest
	if len(bytes.TrimSpace(body)) == 0 {
		return in, nil
	}
	err := dec.Decode(body, &in, wayfarer.MethodLogin)
	return in, err
}
