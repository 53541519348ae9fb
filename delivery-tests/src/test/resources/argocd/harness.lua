-- lua5.1 harness.lua <health script> <fixture>
-- Runs an Argo CD health script the way Argo CD does: the object as the global obj, only the safe
-- standard libraries in reach, the returned table's status and message printed on two lines.
local fixture = assert(loadfile(arg[2]))
local script = assert(loadfile(arg[1]))
local sandbox = {
  obj = fixture(),
  ipairs = ipairs, pairs = pairs, next = next, type = type, tostring = tostring, tonumber = tonumber,
  error = error, pcall = pcall, select = select, unpack = unpack,
  string = string, table = table, math = math,
}
setfenv(script, sandbox)
local hs = script()
print(hs.status)
print(hs.message)
