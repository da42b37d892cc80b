// libxml2's tree parser, for SMIL layouts and XMP packets. Parsed with XML_PARSE_NONET and without
// XML_PARSE_NOENT/DTDLOAD: nothing is fetched, no entity is expanded (the reader refuses DOCTYPEs before parsing).
//
// Debian's libxml2 is built with ICU, so encoding.h would include ICU's unicode/ucnv.h, whose enums clash with
// the ICU copy inside Swift's Foundation. kiosk never uses libxml2's encoding handlers (only pointers to them
// pass by), so the ICU members are left out of the declarations Swift sees.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

/// xmlFree is a global function pointer, which Swift 6 sees as shared mutable state: called through here.
static inline void kiosk_xml_free(void *p) { xmlFree(p); }
