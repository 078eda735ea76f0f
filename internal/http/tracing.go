package http

import (
	"context"
	"net/http"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// Tracing is optional (--otlp-endpoint, internal/tracing): through the
// OpenTelemetry API each request gets a server span named by its route
// pattern, continuing the caller's trace (W3C traceparent). Without a
// configured provider the API's no-op tracer records nothing, at the cost
// of a few allocations. A span carries the method, route, status and
// request ID: never a path (it may hold a record number), a user or a body.

const tracerName = "github.com/wayfarerhq/wayfarer/internal/http"

// startSpan starts the request's span; end names it by route and closes it.
func startSpan(r *http.Request, requestID string) (context.Context, func(route string, status int)) {
	ctx := otel.GetTextMapPropagator().Extract(r.Context(), propagation.HeaderCarrier(r.Header))
	ctx, span := otel.Tracer(tracerName).Start(ctx, r.Method, trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(attribute.String("http.request.method", r.Method), attribute.String("wayfarer.request_id", requestID)))
	return ctx, func(route string, status int) {
		span.SetName(r.Method + " " + route)
		span.SetAttributes(attribute.String("http.route", route), attribute.Int("http.response.status_code", status))
		if status >= 500 {
			span.SetStatus(codes.Error, http.StatusText(status))
		}
		span.End()
	}
}
