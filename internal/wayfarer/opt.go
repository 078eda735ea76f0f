package wayfarer

// Opt is a field of a record that may be absent from a JSON body, present
// as null, or present with a value. The old/new diff needs all three:
// an absent field is left alone, a null one is cleared.
type Opt[T comparable] struct {
	Value   T
	Valid   bool // present and not null
	Present bool // the key appeared in the JSON
}

// Some returns a present, non-null Opt.
func Some[T comparable](v T) Opt[T] { return Opt[T]{Value: v, Valid: true, Present: true} }

// Null returns a present null Opt.
func Null[T comparable]() Opt[T] { return Opt[T]{Present: true} }

// FromPtr returns a present Opt: null for nil, the value otherwise.
func FromPtr[T comparable](p *T) Opt[T] {
	if p == nil {
		return Null[T]()
	}
	return Some(*p)
}

// Ptr returns a pointer to the value, or nil when absent or null.
func (o Opt[T]) Ptr() *T {
	if !o.Valid {
		return nil
	}
	v := o.Value
	return &v
}

// IsZero makes `json:",omitzero"` omit an absent field. A pointer
// receiver: the encoder then tests a field through its address instead of
// boxing a copy of it (a person's answer has hundreds of them).
func (o *Opt[T]) IsZero() bool { return !o.Present }

// Equal compares presence-insensitively: two nulls are equal, as are two equal values.
func (o Opt[T]) Equal(p Opt[T]) bool {
	if o.Valid != p.Valid {
		return false
	}
	return !o.Valid || o.Value == p.Value
}

// For codecs at the edge: a decoder calls SetNull for a null, or
// DecodeTarget and then decodes the value into the pointer it returns; an
// encoder writes what EncodeValue returns, or null when it reports false.

// SetNull makes o a present null.
func (o *Opt[T]) SetNull() { *o = Opt[T]{Present: true} }

// DecodeTarget marks o present with a value and returns a pointer to the
// value to decode into.
func (o *Opt[T]) DecodeTarget() any {
	o.Present, o.Valid = true, true
	return &o.Value
}

// EncodeValue returns the value and whether there is one (false: null).
func (o Opt[T]) EncodeValue() (any, bool) { return o.Value, o.Valid }
