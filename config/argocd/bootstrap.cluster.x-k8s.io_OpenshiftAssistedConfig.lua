-- Argo CD health of an OpenshiftAssistedConfig (docs/bootstrap.md, "Status" and "Troubleshooting").
-- Suspended while paused; Progressing until status describes the current spec and the bootstrap data
-- Secret is ready; Degraded for the reasons only a person can fix; Healthy once Ready is True.
local hs = {}

local function condition(conditionType)
  if obj.status ~= nil and obj.status.conditions ~= nil then
    for _, c in ipairs(obj.status.conditions) do
      if c.type == conditionType then
        return c
      end
    end
  end
  return nil
end

local function describe(c)
  if c.message ~= nil and c.message ~= "" then
    return c.reason .. ": " .. c.message
  end
  return c.reason
end

-- Ready=False reasons that do not clear without a change by a person.
local needsAction = {
  InvalidDiscoveryIgnitionOverride = true,
  InvalidIgnitionOverride = true,
  InstallIgnitionTooLarge = true,
  InfraEnvRefused = true,
  UnsupportedInfrastructure = true,
  InvalidDiscoveryIgnition = true,
  DiscoveryIgnitionDownloadFailed = true,
  NoDiskMatchesRootDeviceHints = true,
}

local paused = condition("Paused")
local ready = condition("Ready")
local generation = obj.metadata.generation

if paused ~= nil and paused.status == "True" then
  hs.status = "Suspended"
  hs.message = "Paused: " .. (paused.message or "reconciliation is paused")
elseif obj.status == nil or ready == nil then
  hs.status = "Progressing"
  hs.message = "Waiting for the bootstrap provider to report status"
elseif generation ~= nil and (obj.status.observedGeneration == nil or obj.status.observedGeneration < generation) then
  hs.status = "Progressing"
  hs.message = "Waiting for the bootstrap provider to observe generation " .. generation
elseif ready.status == "True" then
  hs.status = "Healthy"
  hs.message = "Bootstrap data ready in Secret " .. (obj.status.dataSecretName or "")
elseif needsAction[ready.reason] then
  hs.status = "Degraded"
  hs.message = describe(ready)
else
  hs.status = "Progressing"
  hs.message = describe(ready)
end
return hs
