/**
 * Where this Group Authority is known to depart from the spec, one line each, until a fix and
 * the test that shows it land. The conformance report (test/support/conformanceReport.ts) and
 * the README's claim name every one, and no full claim is made while any stands (§22).
 */

export const KNOWN_DEPARTURES: readonly string[] = [
  '**A child Mission may widen authority** (§4.11, §14): a child\'s WorkItems are not yet checked against the resources, operations and data classifications of the parent WorkItem and the whole ancestry, at creation, authorization, delegation or token issuance.',
  '**Capability tokens see only their own Mission\'s budget** (§12): a token\'s ceiling is not yet capped by what the WorkItem\'s ancestry has left.',
  '**Artifact content may cross Missions** (§4.9, §13.3): publishing does not yet require possession of the content, and a download is not yet restricted to publications whose publisher had it.',
  '**A parent WorkItem\'s end does not reach its child Mission** (§12, §14): `work.cancel` and `work.fail` on a promoted WorkItem leave its running child active.',
  '**Human-gated work in a descendant cannot start** (§12, §14): no human on the Mission tree\'s path may yet grant its execution approval.',
  '**The root MissionOwner does not see the whole tree** (§14): descendant Groups answer `GROUP_NOT_FOUND` to it.',
  '**An incompatible Agent Card upgrade is not fenced** (§6.1): an owner whose new Card no longer meets the Work Contract keeps starting and renewing.',
  '**Refusal records are not all durable** (§6.4): refused Signed Documents are buffered before they are stored, coalesced under load, and a tampered embedded Agent Card leaves none.',
  '**Extension Profile registration skips admission** (§6.4, §18): a profile signed under a revoked key with a backdated `approvedAt` is registered, with no First-Admission Record.',
  '**Delegation depth has no Organization bound** (§9.1, §20).',
  '**A replacement Coordinator may assign before its Context Package exists** (§7.2, §13.3).',
  '**`ext.missionweaveprotocol.core.work_dependency_add` moves WorkItems to `open`** from states where no row of §10.2 allows it.',
  '**`replay --verify` does not check First-Admission anchors independently**: it compares records rebuilt from the evidence they are checked against.',
  '**The Registry is not independently checkable** (§6): it is unsigned, the export\'s members differ from the normative Registry schema, the export and the HTTPS copy differ in member order, and human sessions cannot read it or the archival Group Snapshot.',
];
