package wayfarer

import (
	"context"
	"errors"
)

// Attachments of a person (devportal Person, personAttachmentLink): links
// (a URL) and files (bytes kept in the database). Loading a person shows
// an attachment's metadata only; a file's bytes come from their own call
// (PersonService.AttachmentFile).

// Attachment types.
const (
	AttachmentTypeLink = 1
	AttachmentTypeFile = 2
)

// Attachment visibilities.
const (
	VisibilityPublic   = 1
	VisibilityPrivate  = 2
	VisibilityInternal = 3
)

// Attachment sub types.
const (
	AttachmentDocument = 1
	AttachmentImage    = 2
	AttachmentOther    = 3
)

// Where an attachment's bytes are kept. Wayfarer serves only the database;
// the reference's PrivateStorage (1) and PublicStorage (2) are refused as
// not yet supported.
const StoreDatabase = 0

// AttachmentLink connects a person with one attachment.
type AttachmentLink struct {
	PersonRecNo     Opt[int64]  `json:"person_recNo,omitzero" wf:"id"`
	AttachmentRecNo Opt[int64]  `json:"attachment_recNo,omitzero" wf:"id"`
	Attachment      *Attachment `json:"attachment,omitzero"`
}

// Attachment is a link (fileNameLinkURL is an http or https URL) or a file
// (fileNameLinkURL is its name, fileData its bytes). A loaded attachment
// has fileData null; size (the bytes' length) and createDateTime are the
// server's; directUrl, a URL of the reference's external storage, is always
// null since files are kept in the database.
type Attachment struct {
	RecNo           Opt[int64]     `json:"recNo,omitzero" wf:"id"`
	Type            Opt[int]       `json:"type,omitzero"`
	Description     Opt[string]    `json:"description,omitzero" max:"256"`
	FileNameLinkURL Opt[string]    `json:"fileNameLinkURL,omitzero" max:"256"`
	FileData        Opt[FileData]  `json:"fileData,omitzero" wf:"file"`
	Size            Opt[int]       `json:"size,omitzero" wf:"ro"`
	Compressed      Opt[bool]      `json:"compressed,omitzero"`
	StoreExternal   Opt[int]       `json:"storeExternal,omitzero"`
	CreateDateTime  Opt[Timestamp] `json:"createDateTime,omitzero" wf:"ro"`
	Visibility      Opt[int]       `json:"visibility,omitzero"`
	DirectURL       Opt[string]    `json:"directUrl,omitzero" max:"256" wf:"ro"`
	SubType         Opt[int]       `json:"subType,omitzero"`
}

// FileData is the content of a file attachment; on the wire it is base64
// (the reference's byte[]). It holds the bytes in a string so that an Opt
// can hold it and the diff can compare it.
type FileData struct{ b string }

// NewFileData returns the bytes as FileData (copied).
func NewFileData(b []byte) FileData { return FileData{string(b)} }

// Bytes returns a copy of the bytes.
func (f FileData) Bytes() []byte { return []byte(f.b) }

// Len is the number of bytes.
func (f FileData) Len() int { return len(f.b) }

// AttachmentLimits bound the bytes a person's files may hold: MaxBytes per
// file, MaxPersonBytes for all files of one person (--attachment-max-bytes,
// --attachment-max-person-bytes). Zero values take the defaults.
type AttachmentLimits struct {
	MaxBytes       int64
	MaxPersonBytes int64
}

// Default attachment limits.
const (
	DefaultAttachmentMaxBytes       = 5 << 20
	DefaultAttachmentMaxPersonBytes = 20 << 20
)

// WithDefaults fills zero limits with the defaults.
func (l AttachmentLimits) WithDefaults() AttachmentLimits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultAttachmentMaxBytes
	}
	if l.MaxPersonBytes <= 0 {
		l.MaxPersonBytes = DefaultAttachmentMaxPersonBytes
	}
	return l
}

// AttachmentFile is a file's bytes as the bytes call answers them.
type AttachmentFile struct {
	Name        string // the attachment's fileNameLinkURL, as stored
	ContentType string
	Data        []byte
}

// AttachmentFile returns the bytes of a file attached to a person, under
// the person's Read permission and scope. A person out of reach, an
// attachment that is not the person's, and a link (no bytes) are one and
// the same answer: PersonNotFoundError.
func (s *PersonService) AttachmentFile(ctx context.Context, sess *Session, recNo, attachmentRecNo int64) (*AttachmentFile, error) {
	if err := sess.Require(AreaPerson, PermRead, MethodPerson); err != nil {
		return nil, err
	}
	if recNo <= 0 || attachmentRecNo <= 0 {
		return nil, PersonNotFoundError()
	}
	f, err := s.Store.LoadAttachmentFile(ctx, sess.Scope(AreaPerson), recNo, attachmentRecNo)
	if errors.Is(err, ErrNotFound) {
		return nil, PersonNotFoundError()
	}
	if err != nil {
		return nil, rewordTimeout(err, MethodPerson, "Loading the file took longer than the %s limit; try again")
	}
	f.ContentType = FileContentType(f.Name)
	return f, nil
}
