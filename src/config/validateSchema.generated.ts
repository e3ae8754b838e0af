// @ts-nocheck
// generated from schema/hooks.schema.json by scripts/generate-validator.mjs: do not edit.
"use strict";
export const validate = validate20;
export default validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://github.com/hookrun/hookrun/schema/hooks.schema.json","title":"hookrun config","type":"object","properties":{"$schema":{"type":"string"},"version":{"const":1},"defaults":{"type":["object","null"],"properties":{"timeout":{"$ref":"#/$defs/duration"},"shell":{"$ref":"#/$defs/shell"},"env":{"$ref":"#/$defs/env"},"max_output":{"$ref":"#/$defs/size"}},"patternProperties":{"^x-":{}},"additionalProperties":false},"events":{"type":["object","null"],"patternProperties":{"^x-":{}},"additionalProperties":{"$ref":"#/$defs/eventSettings"}},"hooks":{"type":["object","null"],"properties":{"session_start":{"$ref":"#/$defs/hookList"},"session_end":{"$ref":"#/$defs/hookList"},"setup":{"$ref":"#/$defs/hookList"},"user_prompt_submit":{"$ref":"#/$defs/hookList"},"user_prompt_expansion":{"$ref":"#/$defs/hookList"},"message_post_process":{"$ref":"#/$defs/hookList"},"message_transform":{"$ref":"#/$defs/hookList"},"pre_turn":{"$ref":"#/$defs/hookList"},"post_turn":{"$ref":"#/$defs/hookList"},"generation_pre":{"$ref":"#/$defs/hookList"},"generation_post":{"$ref":"#/$defs/hookList"},"generation_interrupt":{"$ref":"#/$defs/hookList"},"pre_tool_use":{"$ref":"#/$defs/hookList"},"post_tool_use":{"$ref":"#/$defs/hookList"},"post_tool_use_failure":{"$ref":"#/$defs/hookList"},"post_tool_batch":{"$ref":"#/$defs/hookList"},"tool_transform":{"$ref":"#/$defs/hookList"},"permission_request":{"$ref":"#/$defs/hookList"},"permission_denied":{"$ref":"#/$defs/hookList"},"file_pre_save":{"$ref":"#/$defs/hookList"},"file_post_save":{"$ref":"#/$defs/hookList"},"file_pre_patch":{"$ref":"#/$defs/hookList"},"file_post_patch":{"$ref":"#/$defs/hookList"},"stop":{"$ref":"#/$defs/hookList"},"stop_failure":{"$ref":"#/$defs/hookList"},"subagent_start":{"$ref":"#/$defs/hookList"},"subagent_stop":{"$ref":"#/$defs/hookList"},"teammate_idle":{"$ref":"#/$defs/hookList"},"task_created":{"$ref":"#/$defs/hookList"},"task_completed":{"$ref":"#/$defs/hookList"},"notification":{"$ref":"#/$defs/hookList"},"elicitation":{"$ref":"#/$defs/hookList"},"elicitation_result":{"$ref":"#/$defs/hookList"},"pre_compact":{"$ref":"#/$defs/hookList"},"post_compact":{"$ref":"#/$defs/hookList"},"pre_model_switch":{"$ref":"#/$defs/hookList"},"post_model_switch":{"$ref":"#/$defs/hookList"},"cwd_changed":{"$ref":"#/$defs/hookList"},"directory_added":{"$ref":"#/$defs/hookList"},"file_changed":{"$ref":"#/$defs/hookList"},"instructions_loaded":{"$ref":"#/$defs/hookList"},"config_change":{"$ref":"#/$defs/hookList"},"loop_continue":{"$ref":"#/$defs/hookList"},"error":{"$ref":"#/$defs/hookList"}},"patternProperties":{"^x-":{}},"additionalProperties":{"$ref":"#/$defs/hookList"}},"log":{"type":["object","null"],"properties":{"context":{"type":"boolean"}},"patternProperties":{"^x-":{}},"additionalProperties":false}},"patternProperties":{"^x-":{}},"additionalProperties":false,"$defs":{"duration":{"type":["number","string"],"exclusiveMinimum":0,"maximum":86400,"pattern":"^\\s*\\d+(\\.\\d+)?\\s*(ms|s|m|h)?\\s*$"},"size":{"type":["integer","string"],"minimum":0,"pattern":"^\\s*\\d+(\\.\\d+)?\\s*([Bb]|[KkMmGg]([Ii]?[Bb])?)?\\s*$"},"env":{"type":"object","propertyNames":{"pattern":"^[A-Za-z_][A-Za-z0-9_]*$"},"additionalProperties":{"type":"string"}},"shell":{"type":"string","minLength":1},"hook":{"type":"object","required":["name"],"properties":{"name":{"type":"string","pattern":"^[a-z0-9][a-z0-9._-]*$"},"command":{"type":"string","minLength":1},"args":{"type":"array","minItems":1,"items":{"type":"string"}},"description":{"type":"string"},"priority":{"type":"integer"},"async":{"type":"boolean"},"loop_limit":{"type":["integer","null"],"minimum":1},"rewake":{"type":"boolean"},"timeout":{"$ref":"#/$defs/duration"},"enabled":{"type":"boolean"},"matcher":{"type":"string"},"if":{"type":"string","minLength":1},"paths":{"type":"array","minItems":1,"items":{"type":"string","minLength":1}},"env":{"$ref":"#/$defs/env"},"cwd":{"type":"string","minLength":1},"shell":{"$ref":"#/$defs/shell"},"on_failure":{"enum":["continue","block"]},"dialect":{"enum":["native","claude","codex","droid","agent-code","cursor","windsurf","cline","gemini","qwen","copilot","copilot-pascal"]},"max_output":{"$ref":"#/$defs/size"}},"patternProperties":{"^x-":{}},"additionalProperties":false},"hookList":{"type":["array","null"],"items":{"$ref":"#/$defs/hook"}},"eventSettings":{"type":["object","null"],"properties":{"parallel":{"type":"boolean"},"custom":{"type":"boolean"},"description":{"type":"string"},"gate":{"type":"boolean"}},"patternProperties":{"^x-":{}},"additionalProperties":false}}};
const schema32 = {"type":["number","string"],"exclusiveMinimum":0,"maximum":86400,"pattern":"^\\s*\\d+(\\.\\d+)?\\s*(ms|s|m|h)?\\s*$"};
const schema33 = {"type":"string","minLength":1};
const schema34 = {"type":"object","propertyNames":{"pattern":"^[A-Za-z_][A-Za-z0-9_]*$"},"additionalProperties":{"type":"string"}};
const schema35 = {"type":["integer","string"],"minimum":0,"pattern":"^\\s*\\d+(\\.\\d+)?\\s*([Bb]|[KkMmGg]([Ii]?[Bb])?)?\\s*$"};
const schema36 = {"type":["object","null"],"properties":{"parallel":{"type":"boolean"},"custom":{"type":"boolean"},"description":{"type":"string"},"gate":{"type":"boolean"}},"patternProperties":{"^x-":{}},"additionalProperties":false};
const pattern4 = new RegExp("^x-", "u");
const pattern6 = new RegExp("^\\s*\\d+(\\.\\d+)?\\s*(ms|s|m|h)?\\s*$", "u");
const pattern7 = new RegExp("^[A-Za-z_][A-Za-z0-9_]*$", "u");
const pattern8 = new RegExp("^\\s*\\d+(\\.\\d+)?\\s*([Bb]|[KkMmGg]([Ii]?[Bb])?)?\\s*$", "u");
const func1 = Object.prototype.hasOwnProperty;
const schema37 = {"type":["array","null"],"items":{"$ref":"#/$defs/hook"}};
const schema38 = {"type":"object","required":["name"],"properties":{"name":{"type":"string","pattern":"^[a-z0-9][a-z0-9._-]*$"},"command":{"type":"string","minLength":1},"args":{"type":"array","minItems":1,"items":{"type":"string"}},"description":{"type":"string"},"priority":{"type":"integer"},"async":{"type":"boolean"},"loop_limit":{"type":["integer","null"],"minimum":1},"rewake":{"type":"boolean"},"timeout":{"$ref":"#/$defs/duration"},"enabled":{"type":"boolean"},"matcher":{"type":"string"},"if":{"type":"string","minLength":1},"paths":{"type":"array","minItems":1,"items":{"type":"string","minLength":1}},"env":{"$ref":"#/$defs/env"},"cwd":{"type":"string","minLength":1},"shell":{"$ref":"#/$defs/shell"},"on_failure":{"enum":["continue","block"]},"dialect":{"enum":["native","claude","codex","droid","agent-code","cursor","windsurf","cline","gemini","qwen","copilot","copilot-pascal"]},"max_output":{"$ref":"#/$defs/size"}},"patternProperties":{"^x-":{}},"additionalProperties":false};
const pattern13 = new RegExp("^[a-z0-9][a-z0-9._-]*$", "u");

function validate22(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate22.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
for(const key0 in data){
if(!((func1.call(schema38.properties, key0)) || (pattern4.test(key0)))){
const err1 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.name !== undefined){
let data0 = data.name;
if(typeof data0 === "string"){
if(!pattern13.test(data0)){
const err2 = {instancePath:instancePath+"/name",schemaPath:"#/properties/name/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9][a-z0-9._-]*$"},message:"must match pattern \""+"^[a-z0-9][a-z0-9._-]*$"+"\""};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
else {
const err3 = {instancePath:instancePath+"/name",schemaPath:"#/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.command !== undefined){
let data1 = data.command;
if(typeof data1 === "string"){
if(data1.length < 1){
const err4 = {instancePath:instancePath+"/command",schemaPath:"#/properties/command/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
else {
const err5 = {instancePath:instancePath+"/command",schemaPath:"#/properties/command/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.args !== undefined){
let data2 = data.args;
if(Array.isArray(data2)){
if(data2.length < 1){
const err6 = {instancePath:instancePath+"/args",schemaPath:"#/properties/args/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
const len0 = data2.length;
for(let i0=0; i0<len0; i0++){
if(typeof data2[i0] !== "string"){
const err7 = {instancePath:instancePath+"/args/" + i0,schemaPath:"#/properties/args/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
}
else {
const err8 = {instancePath:instancePath+"/args",schemaPath:"#/properties/args/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.description !== undefined){
if(typeof data.description !== "string"){
const err9 = {instancePath:instancePath+"/description",schemaPath:"#/properties/description/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.priority !== undefined){
let data5 = data.priority;
if(!(((typeof data5 == "number") && (!(data5 % 1) && !isNaN(data5))) && (isFinite(data5)))){
const err10 = {instancePath:instancePath+"/priority",schemaPath:"#/properties/priority/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.async !== undefined){
if(typeof data.async !== "boolean"){
const err11 = {instancePath:instancePath+"/async",schemaPath:"#/properties/async/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.loop_limit !== undefined){
let data7 = data.loop_limit;
if((!(((typeof data7 == "number") && (!(data7 % 1) && !isNaN(data7))) && (isFinite(data7)))) && (data7 !== null)){
const err12 = {instancePath:instancePath+"/loop_limit",schemaPath:"#/properties/loop_limit/type",keyword:"type",params:{type: schema38.properties.loop_limit.type},message:"must be integer,null"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if((typeof data7 == "number") && (isFinite(data7))){
if(data7 < 1 || isNaN(data7)){
const err13 = {instancePath:instancePath+"/loop_limit",schemaPath:"#/properties/loop_limit/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
}
if(data.rewake !== undefined){
if(typeof data.rewake !== "boolean"){
const err14 = {instancePath:instancePath+"/rewake",schemaPath:"#/properties/rewake/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.timeout !== undefined){
let data9 = data.timeout;
if((!((typeof data9 == "number") && (isFinite(data9)))) && (typeof data9 !== "string")){
const err15 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: schema32.type},message:"must be number,string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
if((typeof data9 == "number") && (isFinite(data9))){
if(data9 > 86400 || isNaN(data9)){
const err16 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/maximum",keyword:"maximum",params:{comparison: "<=", limit: 86400},message:"must be <= 86400"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
if(data9 <= 0 || isNaN(data9)){
const err17 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/exclusiveMinimum",keyword:"exclusiveMinimum",params:{comparison: ">", limit: 0},message:"must be > 0"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(typeof data9 === "string"){
if(!pattern6.test(data9)){
const err18 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^\\s*\\d+(\\.\\d+)?\\s*(ms|s|m|h)?\\s*$"},message:"must match pattern \""+"^\\s*\\d+(\\.\\d+)?\\s*(ms|s|m|h)?\\s*$"+"\""};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
}
if(data.enabled !== undefined){
if(typeof data.enabled !== "boolean"){
const err19 = {instancePath:instancePath+"/enabled",schemaPath:"#/properties/enabled/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data.matcher !== undefined){
if(typeof data.matcher !== "string"){
const err20 = {instancePath:instancePath+"/matcher",schemaPath:"#/properties/matcher/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data.if !== undefined){
let data12 = data.if;
if(typeof data12 === "string"){
if(data12.length < 1){
const err21 = {instancePath:instancePath+"/if",schemaPath:"#/properties/if/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
else {
const err22 = {instancePath:instancePath+"/if",schemaPath:"#/properties/if/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data.paths !== undefined){
let data13 = data.paths;
if(Array.isArray(data13)){
if(data13.length < 1){
const err23 = {instancePath:instancePath+"/paths",schemaPath:"#/properties/paths/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
const len1 = data13.length;
for(let i1=0; i1<len1; i1++){
let data14 = data13[i1];
if(typeof data14 === "string"){
if(data14.length < 1){
const err24 = {instancePath:instancePath+"/paths/" + i1,schemaPath:"#/properties/paths/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
else {
const err25 = {instancePath:instancePath+"/paths/" + i1,schemaPath:"#/properties/paths/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
}
else {
const err26 = {instancePath:instancePath+"/paths",schemaPath:"#/properties/paths/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
if(data.env !== undefined){
let data15 = data.env;
if(data15 && typeof data15 == "object" && !Array.isArray(data15)){
for(const key1 in data15){
const _errs36 = errors;
if(typeof key1 === "string"){
if(!pattern7.test(key1)){
const err27 = {instancePath:instancePath+"/env",schemaPath:"#/$defs/env/propertyNames/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z_][A-Za-z0-9_]*$"},message:"must match pattern \""+"^[A-Za-z_][A-Za-z0-9_]*$"+"\"",propertyName:key1};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
var valid7 = _errs36 === errors;
if(!valid7){
const err28 = {instancePath:instancePath+"/env",schemaPath:"#/$defs/env/propertyNames",keyword:"propertyNames",params:{propertyName: key1},message:"property name must be valid"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
for(const key2 in data15){
if(typeof data15[key2] !== "string"){
const err29 = {instancePath:instancePath+"/env/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/env/additionalProperties/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
}
else {
const err30 = {instancePath:instancePath+"/env",schemaPath:"#/$defs/env/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
if(data.cwd !== undefined){
let data17 = data.cwd;
if(typeof data17 === "string"){
if(data17.length < 1){
const err31 = {instancePath:instancePath+"/cwd",schemaPath:"#/properties/cwd/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
else {
const err32 = {instancePath:instancePath+"/cwd",schemaPath:"#/properties/cwd/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
if(data.shell !== undefined){
let data18 = data.shell;
if(typeof data18 === "string"){
if(data18.length < 1){
const err33 = {instancePath:instancePath+"/shell",schemaPath:"#/$defs/shell/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
else {
const err34 = {instancePath:instancePath+"/shell",schemaPath:"#/$defs/shell/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
}
if(data.on_failure !== undefined){
let data19 = data.on_failure;
if(!((data19 === "continue") || (data19 === "block"))){
const err35 = {instancePath:instancePath+"/on_failure",schemaPath:"#/properties/on_failure/enum",keyword:"enum",params:{allowedValues: schema38.properties.on_failure.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
if(data.dialect !== undefined){
let data20 = data.dialect;
if(!((((((((((((data20 === "native") || (data20 === "claude")) || (data20 === "codex")) || (data20 === "droid")) || (data20 === "agent-code")) || (data20 === "cursor")) || (data20 === "windsurf")) || (data20 === "cline")) || (data20 === "gemini")) || (data20 === "qwen")) || (data20 === "copilot")) || (data20 === "copilot-pascal"))){
const err36 = {instancePath:instancePath+"/dialect",schemaPath:"#/properties/dialect/enum",keyword:"enum",params:{allowedValues: schema38.properties.dialect.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
if(data.max_output !== undefined){
let data21 = data.max_output;
if((!(((typeof data21 == "number") && (!(data21 % 1) && !isNaN(data21))) && (isFinite(data21)))) && (typeof data21 !== "string")){
const err37 = {instancePath:instancePath+"/max_output",schemaPath:"#/$defs/size/type",keyword:"type",params:{type: schema35.type},message:"must be integer,string"};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
if((typeof data21 == "number") && (isFinite(data21))){
if(data21 < 0 || isNaN(data21)){
const err38 = {instancePath:instancePath+"/max_output",schemaPath:"#/$defs/size/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
}
if(typeof data21 === "string"){
if(!pattern8.test(data21)){
const err39 = {instancePath:instancePath+"/max_output",schemaPath:"#/$defs/size/pattern",keyword:"pattern",params:{pattern: "^\\s*\\d+(\\.\\d+)?\\s*([Bb]|[KkMmGg]([Ii]?[Bb])?)?\\s*$"},message:"must match pattern \""+"^\\s*\\d+(\\.\\d+)?\\s*([Bb]|[KkMmGg]([Ii]?[Bb])?)?\\s*$"+"\""};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
}
}
}
else {
const err40 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
validate22.errors = vErrors;
return errors === 0;
}
validate22.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate21.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if((!(Array.isArray(data))) && (data !== null)){
const err0 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: schema37.type},message:"must be array,null"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(Array.isArray(data)){
const len0 = data.length;
for(let i0=0; i0<len0; i0++){
if(!(validate22(data[i0], {instancePath:instancePath+"/" + i0,parentData:data,parentDataProperty:i0,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
}
}
validate21.errors = vErrors;
return errors === 0;
}
validate21.evaluated = {"items":true,"dynamicProps":false,"dynamicItems":false};


function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://github.com/hookrun/hookrun/schema/hooks.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!(((((((key0 === "$schema") || (key0 === "version")) || (key0 === "defaults")) || (key0 === "events")) || (key0 === "hooks")) || (key0 === "log")) || (pattern4.test(key0)))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.$schema !== undefined){
if(typeof data.$schema !== "string"){
const err1 = {instancePath:instancePath+"/$schema",schemaPath:"#/properties/%24schema/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.version !== undefined){
if(1 !== data.version){
const err2 = {instancePath:instancePath+"/version",schemaPath:"#/properties/version/const",keyword:"const",params:{allowedValue: 1},message:"must be equal to constant"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.defaults !== undefined){
let data2 = data.defaults;
if((!(data2 && typeof data2 == "object" && !Array.isArray(data2))) && (data2 !== null)){
const err3 = {instancePath:instancePath+"/defaults",schemaPath:"#/properties/defaults/type",keyword:"type",params:{type: schema31.properties.defaults.type},message:"must be object,null"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
for(const key1 in data2){
if(!(((((key1 === "timeout") || (key1 === "shell")) || (key1 === "env")) || (key1 === "max_output")) || (pattern4.test(key1)))){
const err4 = {instancePath:instancePath+"/defaults",schemaPath:"#/properties/defaults/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data2.timeout !== undefined){
let data3 = data2.timeout;
if((!((typeof data3 == "number") && (isFinite(data3)))) && (typeof data3 !== "string")){
const err5 = {instancePath:instancePath+"/defaults/timeout",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: schema32.type},message:"must be number,string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if((typeof data3 == "number") && (isFinite(data3))){
if(data3 > 86400 || isNaN(data3)){
const err6 = {instancePath:instancePath+"/defaults/timeout",schemaPath:"#/$defs/duration/maximum",keyword:"maximum",params:{comparison: "<=", limit: 86400},message:"must be <= 86400"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data3 <= 0 || isNaN(data3)){
const err7 = {instancePath:instancePath+"/defaults/timeout",schemaPath:"#/$defs/duration/exclusiveMinimum",keyword:"exclusiveMinimum",params:{comparison: ">", limit: 0},message:"must be > 0"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(typeof data3 === "string"){
if(!pattern6.test(data3)){
const err8 = {instancePath:instancePath+"/defaults/timeout",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^\\s*\\d+(\\.\\d+)?\\s*(ms|s|m|h)?\\s*$"},message:"must match pattern \""+"^\\s*\\d+(\\.\\d+)?\\s*(ms|s|m|h)?\\s*$"+"\""};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
}
if(data2.shell !== undefined){
let data4 = data2.shell;
if(typeof data4 === "string"){
if(data4.length < 1){
const err9 = {instancePath:instancePath+"/defaults/shell",schemaPath:"#/$defs/shell/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/defaults/shell",schemaPath:"#/$defs/shell/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data2.env !== undefined){
let data5 = data2.env;
if(data5 && typeof data5 == "object" && !Array.isArray(data5)){
for(const key2 in data5){
const _errs17 = errors;
if(typeof key2 === "string"){
if(!pattern7.test(key2)){
const err11 = {instancePath:instancePath+"/defaults/env",schemaPath:"#/$defs/env/propertyNames/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z_][A-Za-z0-9_]*$"},message:"must match pattern \""+"^[A-Za-z_][A-Za-z0-9_]*$"+"\"",propertyName:key2};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
var valid5 = _errs17 === errors;
if(!valid5){
const err12 = {instancePath:instancePath+"/defaults/env",schemaPath:"#/$defs/env/propertyNames",keyword:"propertyNames",params:{propertyName: key2},message:"property name must be valid"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
for(const key3 in data5){
if(typeof data5[key3] !== "string"){
const err13 = {instancePath:instancePath+"/defaults/env/" + key3.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/env/additionalProperties/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
}
else {
const err14 = {instancePath:instancePath+"/defaults/env",schemaPath:"#/$defs/env/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data2.max_output !== undefined){
let data7 = data2.max_output;
if((!(((typeof data7 == "number") && (!(data7 % 1) && !isNaN(data7))) && (isFinite(data7)))) && (typeof data7 !== "string")){
const err15 = {instancePath:instancePath+"/defaults/max_output",schemaPath:"#/$defs/size/type",keyword:"type",params:{type: schema35.type},message:"must be integer,string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
if((typeof data7 == "number") && (isFinite(data7))){
if(data7 < 0 || isNaN(data7)){
const err16 = {instancePath:instancePath+"/defaults/max_output",schemaPath:"#/$defs/size/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(typeof data7 === "string"){
if(!pattern8.test(data7)){
const err17 = {instancePath:instancePath+"/defaults/max_output",schemaPath:"#/$defs/size/pattern",keyword:"pattern",params:{pattern: "^\\s*\\d+(\\.\\d+)?\\s*([Bb]|[KkMmGg]([Ii]?[Bb])?)?\\s*$"},message:"must match pattern \""+"^\\s*\\d+(\\.\\d+)?\\s*([Bb]|[KkMmGg]([Ii]?[Bb])?)?\\s*$"+"\""};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
}
}
if(data.events !== undefined){
let data8 = data.events;
if((!(data8 && typeof data8 == "object" && !Array.isArray(data8))) && (data8 !== null)){
const err18 = {instancePath:instancePath+"/events",schemaPath:"#/properties/events/type",keyword:"type",params:{type: schema31.properties.events.type},message:"must be object,null"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
for(const key4 in data8){
if(!(pattern4.test(key4))){
let data9 = data8[key4];
if((!(data9 && typeof data9 == "object" && !Array.isArray(data9))) && (data9 !== null)){
const err19 = {instancePath:instancePath+"/events/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/eventSettings/type",keyword:"type",params:{type: schema36.type},message:"must be object,null"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
if(data9 && typeof data9 == "object" && !Array.isArray(data9)){
for(const key5 in data9){
if(!(((((key5 === "parallel") || (key5 === "custom")) || (key5 === "description")) || (key5 === "gate")) || (pattern4.test(key5)))){
const err20 = {instancePath:instancePath+"/events/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/eventSettings/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key5},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data9.parallel !== undefined){
if(typeof data9.parallel !== "boolean"){
const err21 = {instancePath:instancePath+"/events/" + key4.replace(/~/g, "~0").replace(/\//g, "~1")+"/parallel",schemaPath:"#/$defs/eventSettings/properties/parallel/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(data9.custom !== undefined){
if(typeof data9.custom !== "boolean"){
const err22 = {instancePath:instancePath+"/events/" + key4.replace(/~/g, "~0").replace(/\//g, "~1")+"/custom",schemaPath:"#/$defs/eventSettings/properties/custom/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data9.description !== undefined){
if(typeof data9.description !== "string"){
const err23 = {instancePath:instancePath+"/events/" + key4.replace(/~/g, "~0").replace(/\//g, "~1")+"/description",schemaPath:"#/$defs/eventSettings/properties/description/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data9.gate !== undefined){
if(typeof data9.gate !== "boolean"){
const err24 = {instancePath:instancePath+"/events/" + key4.replace(/~/g, "~0").replace(/\//g, "~1")+"/gate",schemaPath:"#/$defs/eventSettings/properties/gate/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
}
}
}
}
}
if(data.hooks !== undefined){
let data14 = data.hooks;
if((!(data14 && typeof data14 == "object" && !Array.isArray(data14))) && (data14 !== null)){
const err25 = {instancePath:instancePath+"/hooks",schemaPath:"#/properties/hooks/type",keyword:"type",params:{type: schema31.properties.hooks.type},message:"must be object,null"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
if(data14 && typeof data14 == "object" && !Array.isArray(data14)){
for(const key6 in data14){
if(!((func1.call(schema31.properties.hooks.properties, key6)) || (pattern4.test(key6)))){
if(!(validate21(data14[key6], {instancePath:instancePath+"/hooks/" + key6.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data14,parentDataProperty:key6,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
}
if(data14.session_start !== undefined){
if(!(validate21(data14.session_start, {instancePath:instancePath+"/hooks/session_start",parentData:data14,parentDataProperty:"session_start",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.session_end !== undefined){
if(!(validate21(data14.session_end, {instancePath:instancePath+"/hooks/session_end",parentData:data14,parentDataProperty:"session_end",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.setup !== undefined){
if(!(validate21(data14.setup, {instancePath:instancePath+"/hooks/setup",parentData:data14,parentDataProperty:"setup",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.user_prompt_submit !== undefined){
if(!(validate21(data14.user_prompt_submit, {instancePath:instancePath+"/hooks/user_prompt_submit",parentData:data14,parentDataProperty:"user_prompt_submit",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.user_prompt_expansion !== undefined){
if(!(validate21(data14.user_prompt_expansion, {instancePath:instancePath+"/hooks/user_prompt_expansion",parentData:data14,parentDataProperty:"user_prompt_expansion",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.message_post_process !== undefined){
if(!(validate21(data14.message_post_process, {instancePath:instancePath+"/hooks/message_post_process",parentData:data14,parentDataProperty:"message_post_process",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.message_transform !== undefined){
if(!(validate21(data14.message_transform, {instancePath:instancePath+"/hooks/message_transform",parentData:data14,parentDataProperty:"message_transform",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.pre_turn !== undefined){
if(!(validate21(data14.pre_turn, {instancePath:instancePath+"/hooks/pre_turn",parentData:data14,parentDataProperty:"pre_turn",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.post_turn !== undefined){
if(!(validate21(data14.post_turn, {instancePath:instancePath+"/hooks/post_turn",parentData:data14,parentDataProperty:"post_turn",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.generation_pre !== undefined){
if(!(validate21(data14.generation_pre, {instancePath:instancePath+"/hooks/generation_pre",parentData:data14,parentDataProperty:"generation_pre",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.generation_post !== undefined){
if(!(validate21(data14.generation_post, {instancePath:instancePath+"/hooks/generation_post",parentData:data14,parentDataProperty:"generation_post",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.generation_interrupt !== undefined){
if(!(validate21(data14.generation_interrupt, {instancePath:instancePath+"/hooks/generation_interrupt",parentData:data14,parentDataProperty:"generation_interrupt",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.pre_tool_use !== undefined){
if(!(validate21(data14.pre_tool_use, {instancePath:instancePath+"/hooks/pre_tool_use",parentData:data14,parentDataProperty:"pre_tool_use",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.post_tool_use !== undefined){
if(!(validate21(data14.post_tool_use, {instancePath:instancePath+"/hooks/post_tool_use",parentData:data14,parentDataProperty:"post_tool_use",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.post_tool_use_failure !== undefined){
if(!(validate21(data14.post_tool_use_failure, {instancePath:instancePath+"/hooks/post_tool_use_failure",parentData:data14,parentDataProperty:"post_tool_use_failure",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.post_tool_batch !== undefined){
if(!(validate21(data14.post_tool_batch, {instancePath:instancePath+"/hooks/post_tool_batch",parentData:data14,parentDataProperty:"post_tool_batch",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.tool_transform !== undefined){
if(!(validate21(data14.tool_transform, {instancePath:instancePath+"/hooks/tool_transform",parentData:data14,parentDataProperty:"tool_transform",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.permission_request !== undefined){
if(!(validate21(data14.permission_request, {instancePath:instancePath+"/hooks/permission_request",parentData:data14,parentDataProperty:"permission_request",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.permission_denied !== undefined){
if(!(validate21(data14.permission_denied, {instancePath:instancePath+"/hooks/permission_denied",parentData:data14,parentDataProperty:"permission_denied",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.file_pre_save !== undefined){
if(!(validate21(data14.file_pre_save, {instancePath:instancePath+"/hooks/file_pre_save",parentData:data14,parentDataProperty:"file_pre_save",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.file_post_save !== undefined){
if(!(validate21(data14.file_post_save, {instancePath:instancePath+"/hooks/file_post_save",parentData:data14,parentDataProperty:"file_post_save",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.file_pre_patch !== undefined){
if(!(validate21(data14.file_pre_patch, {instancePath:instancePath+"/hooks/file_pre_patch",parentData:data14,parentDataProperty:"file_pre_patch",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.file_post_patch !== undefined){
if(!(validate21(data14.file_post_patch, {instancePath:instancePath+"/hooks/file_post_patch",parentData:data14,parentDataProperty:"file_post_patch",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.stop !== undefined){
if(!(validate21(data14.stop, {instancePath:instancePath+"/hooks/stop",parentData:data14,parentDataProperty:"stop",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.stop_failure !== undefined){
if(!(validate21(data14.stop_failure, {instancePath:instancePath+"/hooks/stop_failure",parentData:data14,parentDataProperty:"stop_failure",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.subagent_start !== undefined){
if(!(validate21(data14.subagent_start, {instancePath:instancePath+"/hooks/subagent_start",parentData:data14,parentDataProperty:"subagent_start",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.subagent_stop !== undefined){
if(!(validate21(data14.subagent_stop, {instancePath:instancePath+"/hooks/subagent_stop",parentData:data14,parentDataProperty:"subagent_stop",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.teammate_idle !== undefined){
if(!(validate21(data14.teammate_idle, {instancePath:instancePath+"/hooks/teammate_idle",parentData:data14,parentDataProperty:"teammate_idle",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.task_created !== undefined){
if(!(validate21(data14.task_created, {instancePath:instancePath+"/hooks/task_created",parentData:data14,parentDataProperty:"task_created",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.task_completed !== undefined){
if(!(validate21(data14.task_completed, {instancePath:instancePath+"/hooks/task_completed",parentData:data14,parentDataProperty:"task_completed",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.notification !== undefined){
if(!(validate21(data14.notification, {instancePath:instancePath+"/hooks/notification",parentData:data14,parentDataProperty:"notification",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.elicitation !== undefined){
if(!(validate21(data14.elicitation, {instancePath:instancePath+"/hooks/elicitation",parentData:data14,parentDataProperty:"elicitation",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.elicitation_result !== undefined){
if(!(validate21(data14.elicitation_result, {instancePath:instancePath+"/hooks/elicitation_result",parentData:data14,parentDataProperty:"elicitation_result",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.pre_compact !== undefined){
if(!(validate21(data14.pre_compact, {instancePath:instancePath+"/hooks/pre_compact",parentData:data14,parentDataProperty:"pre_compact",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.post_compact !== undefined){
if(!(validate21(data14.post_compact, {instancePath:instancePath+"/hooks/post_compact",parentData:data14,parentDataProperty:"post_compact",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.pre_model_switch !== undefined){
if(!(validate21(data14.pre_model_switch, {instancePath:instancePath+"/hooks/pre_model_switch",parentData:data14,parentDataProperty:"pre_model_switch",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.post_model_switch !== undefined){
if(!(validate21(data14.post_model_switch, {instancePath:instancePath+"/hooks/post_model_switch",parentData:data14,parentDataProperty:"post_model_switch",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.cwd_changed !== undefined){
if(!(validate21(data14.cwd_changed, {instancePath:instancePath+"/hooks/cwd_changed",parentData:data14,parentDataProperty:"cwd_changed",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.directory_added !== undefined){
if(!(validate21(data14.directory_added, {instancePath:instancePath+"/hooks/directory_added",parentData:data14,parentDataProperty:"directory_added",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.file_changed !== undefined){
if(!(validate21(data14.file_changed, {instancePath:instancePath+"/hooks/file_changed",parentData:data14,parentDataProperty:"file_changed",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.instructions_loaded !== undefined){
if(!(validate21(data14.instructions_loaded, {instancePath:instancePath+"/hooks/instructions_loaded",parentData:data14,parentDataProperty:"instructions_loaded",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.config_change !== undefined){
if(!(validate21(data14.config_change, {instancePath:instancePath+"/hooks/config_change",parentData:data14,parentDataProperty:"config_change",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.loop_continue !== undefined){
if(!(validate21(data14.loop_continue, {instancePath:instancePath+"/hooks/loop_continue",parentData:data14,parentDataProperty:"loop_continue",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data14.error !== undefined){
if(!(validate21(data14.error, {instancePath:instancePath+"/hooks/error",parentData:data14,parentDataProperty:"error",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
}
}
if(data.log !== undefined){
let data60 = data.log;
if((!(data60 && typeof data60 == "object" && !Array.isArray(data60))) && (data60 !== null)){
const err26 = {instancePath:instancePath+"/log",schemaPath:"#/properties/log/type",keyword:"type",params:{type: schema31.properties.log.type},message:"must be object,null"};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
if(data60 && typeof data60 == "object" && !Array.isArray(data60)){
for(const key7 in data60){
if(!((key7 === "context") || (pattern4.test(key7)))){
const err27 = {instancePath:instancePath+"/log",schemaPath:"#/properties/log/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key7},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
if(data60.context !== undefined){
if(typeof data60.context !== "boolean"){
const err28 = {instancePath:instancePath+"/log/context",schemaPath:"#/properties/log/properties/context/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
}
}
}
else {
const err29 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};
