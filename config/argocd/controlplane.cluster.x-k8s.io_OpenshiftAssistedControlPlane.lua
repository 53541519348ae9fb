-- Argo CD health of an OpenshiftAssistedControlPlane (docs/controlplane.md, "Status").
-- Suspended while paused; Progressing while deleting, installing, scaling, rolling out or upgrading, or
-- while status describes an older spec; Degraded for failures only a person can fix; Healthy once the
-- cluster is Available with every Machine ready and up to date.
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

local function is(conditionType, status)
  local c = condition(conditionType)
  return c ~= nil and c.status == status
end

local function describe(conditionType)
  local c = condition(conditionType)
  if c.message ~= nil and c.message ~= "" then
    return conditionType .. " " .. c.reason .. ": " .. c.message
  end
  return conditionType .. " " .. c.reason
end

-- Conditions and reasons that do not clear without a change by a person.
local function failure()
  local failures = {
    { "Available", "False", { InstallationFailed = true, InvalidConfiguration = true } },
    { "ClusterInstallConfigured", "False", { InstallConfigOverrideInvalid = true, ImageRegistryConfigInvalid = true, ClusterInstallRefused = true } },
    { "UpgradeCompleted", "False", { UpgradeFailed = true, DowngradeNotSupported = true } },
    { "ScalingUp", "True", { MachineCreationFailed = true, TopologyChangeNotSupported = true } },
    { "ScalingDown", "True", { TopologyChangeNotSupported = true } },
  }
  for _, f in ipairs(failures) do
    local c = condition(f[1])
    if c ~= nil and c.status == f[2] and f[3][c.reason] then
      return describe(f[1])
    end
  end
  return nil
end

local generation = obj.metadata.generation

if is("Paused", "True") then
  hs.status = "Suspended"
  hs.message = "Paused: " .. (condition("Paused").message or "reconciliation is paused")
elseif obj.status == nil or condition("Available") == nil then
  hs.status = "Progressing"
  hs.message = "Waiting for the control-plane provider to report status"
elseif generation ~= nil and (obj.status.observedGeneration == nil or obj.status.observedGeneration < generation) then
  hs.status = "Progressing"
  hs.message = "Waiting for the control-plane provider to observe generation " .. generation
elseif is("Deleting", "True") then
  hs.status = "Progressing"
  hs.message = describe("Deleting")
elseif failure() ~= nil then
  hs.status = "Degraded"
  hs.message = failure()
elseif not is("Available", "True") then
  hs.status = "Progressing"
  hs.message = describe("Available")
elseif is("UpgradeCompleted", "False") then
  hs.status = "Progressing"
  hs.message = describe("UpgradeCompleted")
elseif is("ScalingUp", "True") then
  hs.status = "Progressing"
  hs.message = describe("ScalingUp")
elseif is("ScalingDown", "True") then
  hs.status = "Progressing"
  hs.message = describe("ScalingDown")
elseif is("RollingOut", "True") then
  hs.status = "Progressing"
  hs.message = describe("RollingOut")
elseif is("MachinesReady", "False") then
  hs.status = "Progressing"
  hs.message = describe("MachinesReady")
elseif is("MachinesUpToDate", "False") then
  hs.status = "Progressing"
  hs.message = describe("MachinesUpToDate")
else
  hs.status = "Healthy"
  hs.message = "OpenShift " .. (obj.status.distributionVersion or "") .. " available, "
    .. (obj.status.readyReplicas or 0) .. "/" .. (obj.status.replicas or 0) .. " control-plane Machines ready"
end
return hs
