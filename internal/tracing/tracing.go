// Package tracing sends OpenTelemetry traces of the requests an instance
// serves to an OTLP collector over HTTP (--otlp-endpoint). It is off by
// default; the HTTP server starts one span per request (internal/http,
// tracing.go) through the OpenTelemetry API, which records nothing until
// Start installs a provider.
package tracing

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
)

// Start exports spans to endpoint, an OTLP/HTTP URL such as
// http://127.0.0.1:4318 (the path /v1/traces is added when it has none),
// and makes the W3C traceparent header carry a trace across services. The
// returned stop flushes what is buffered; call it on shutdown.
func Start(ctx context.Context, endpoint, serviceVersion string) (stop func(context.Context) error, err error) {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--otlp-endpoint %q is not a URL such as http://127.0.0.1:4318", endpoint)
	}
	if strings.Trim(u.Path, "/") == "" {
		u.Path = "/v1/traces"
	}
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(u.String()), otlptracehttp.WithTimeout(10*time.Second))
	if err != nil {
		return nil, fmt.Errorf("OTLP exporter: %w", err)
	}
	res := resource.NewWithAttributes(semconv.SchemaURL,
		semconv.ServiceName("wayfarer"), semconv.ServiceVersion(serviceVersion))
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	return tp.Shutdown, nil
}
