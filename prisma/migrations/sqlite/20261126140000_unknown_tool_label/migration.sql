-- Data only (issue 13): usage recorded the tool name as the caller sent it, so a name outside the
-- catalogue (up to a megabyte each, or a secret) sat in CallLog and DailyUsage and was rendered on the
-- key pages. /mcp now records such calls as unknown_tool, and this rewrites what is already stored the
-- same way. The list is the catalogue of 12 tools when this migration was written: a tool added later
-- never had calls recorded before it. (No semicolons or quotes in these comments: the Prisma engine
-- splits the script into statements at every semicolon.)

UPDATE "CallLog" SET "tool" = 'unknown_tool'
 WHERE "tool" NOT IN (
   'service_query_compound', 'service_search_compounds', 'service_convert_units', 'service_vapor_pressure',
   'service_boiling_point', 'service_eos_state', 'service_mixture_properties', 'service_ideal_gas_thermo',
   'service_liquid_density', 'service_estimate_joback', 'service_formula_info', 'service_molecule_descriptors',
   'unknown_tool');

-- Per (key, day), the counts of every unknown name are summed into one unknown_tool row (added to the
-- one already there, if any), so the (keyId, day, tool) key stays unique. Then the old rows go.
INSERT INTO "DailyUsage" ("keyId", "day", "tool", "successes", "failures", "rateLimited")
SELECT "keyId", "day", 'unknown_tool', SUM("successes"), SUM("failures"), SUM("rateLimited")
  FROM "DailyUsage"
 WHERE "tool" NOT IN (
   'service_query_compound', 'service_search_compounds', 'service_convert_units', 'service_vapor_pressure',
   'service_boiling_point', 'service_eos_state', 'service_mixture_properties', 'service_ideal_gas_thermo',
   'service_liquid_density', 'service_estimate_joback', 'service_formula_info', 'service_molecule_descriptors',
   'unknown_tool')
 GROUP BY "keyId", "day"
ON CONFLICT ("keyId", "day", "tool") DO UPDATE SET
  "successes" = "DailyUsage"."successes" + excluded."successes",
  "failures" = "DailyUsage"."failures" + excluded."failures",
  "rateLimited" = "DailyUsage"."rateLimited" + excluded."rateLimited";

DELETE FROM "DailyUsage"
 WHERE "tool" NOT IN (
   'service_query_compound', 'service_search_compounds', 'service_convert_units', 'service_vapor_pressure',
   'service_boiling_point', 'service_eos_state', 'service_mixture_properties', 'service_ideal_gas_thermo',
   'service_liquid_density', 'service_estimate_joback', 'service_formula_info', 'service_molecule_descriptors',
   'unknown_tool');
