package http_test

import (
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// With a tracer provider installed (as --otlp-endpoint does), each request
// is one server span named by its route, continuing the caller's trace.
func TestTracingSpans(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	prevTP, prevProp := otel.GetTracerProvider(), otel.GetTextMapPropagator()
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.TraceContext{})
	t.Cleanup(func() { otel.SetTracerProvider(prevTP); otel.SetTextMapPropagator(prevProp) })

	s := testserver.Start(t, testserver.Options{})
	tok := s.LoginDemo(t, "agent")
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	s.Do(t, "GET", "/person/777", nil, append(testserver.Bearer(tok),
		"traceparent", "00-"+traceID+"-00f067aa0ba902b7-01", "X-Request-ID", "traced-1")...)
	var found bool
	for _, sp := range rec.Ended() {
		if sp.Name() != "GET /person/{recNo}" {
			continue
		}
		found = true
		if sp.SpanContext().TraceID().String() != traceID {
			t.Errorf("trace %s, want the caller's %s", sp.SpanContext().TraceID(), traceID)
		}
		attrs := map[attribute.Key]string{}
		for _, a := range sp.Attributes() {
			attrs[a.Key] = a.Value.String()
		}
		if attrs["http.route"] != "/person/{recNo}" || attrs["http.response.status_code"] != "204" || attrs["wayfarer.request_id"] != "traced-1" {
			t.Errorf("span attributes %v", attrs)
		}
		for _, v := range attrs {
			if v == "/person/777" || v == "agent" {
				t.Errorf("span holds %q", v)
			}
		}
	}
	if !found {
		t.Fatalf("no span for the request among %d", len(rec.Ended()))
	}
}
