// Demotion rules: a mapping that computes the same values in a simpler form. The legalisation
// (rewrite/Legalize.h) applies them where a mapping cannot run where it stands; they are not
// explored (a demoted mapping is never faster).
//   map-demote   MapGlb(d)(f), MapWrg(d)(f), MapLcl(d)(f) -> MapSeq(f)
//   to-private   toLocal(f) -> toPrivate(f)          (each work-item's own copy)
#include "core/Substitute.h"
#include "rewrite/rules/Rules.h"

namespace tessera::rewrite {

namespace {

RuleResult map_demote(const Expr& f, const RuleContext&) {
  if (f->kind != NodeKind::Map ||
      (f->map_kind != MapKind::Glb && f->map_kind != MapKind::Wrg && f->map_kind != MapKind::Lcl))
    return RuleResult::none("not a parallel mapping (MapGlb, MapWrg, MapLcl)");
  return {{{make_map(MapKind::Seq, 0, f->children[0]), {}}}, ""};
}

RuleResult to_private(const Expr& f, const RuleContext&) {
  if (f->kind != NodeKind::ToMem || f->space != AddressSpace::Local)
    return RuleResult::none("not a copy to local memory");
  return {{{make_to_mem(AddressSpace::Private, f->children[0]), {}}}, ""};
}

} // namespace

Rule map_demote_rule() {
  Rule r{"map-demote", "MapGlb(d)(f), MapWrg(d)(f), MapLcl(d)(f) -> MapSeq(f)", map_demote};
  r.reads_types = false;
  return r;
}

Rule to_private_rule() {
  Rule r{"to-private", "toLocal(f) -> toPrivate(f): each work-item's own copy", to_private};
  r.reads_types = false;
  return r;
}

} // namespace tessera::rewrite
