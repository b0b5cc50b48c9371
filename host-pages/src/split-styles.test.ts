import { describe, expect, it } from 'vitest';
import { splitStyles } from './split-styles.ts';
import { groupOfClass, styleGroupsOf } from './style-groups.ts';

describe('the style groups', () => {
  it('a class belongs to a group by the group’s name or its name and a hyphen, nothing looser', () => {
    expect(groupOfClass('chat')).toBe('chat');
    expect(groupOfClass('chat-main__head')).toBe('chat');
    expect(groupOfClass('gen-viewer')).toBe('gen');
    expect(groupOfClass('admin-tabs')).toBe('admin');
    expect(groupOfClass('chatter')).toBeUndefined();
    expect(groupOfClass('general')).toBeUndefined();
    expect(groupOfClass('btn')).toBeUndefined();
  });

  it('a page needs the groups of its widgets: the admin panel shows runs too', () => {
    expect(styleGroupsOf(['auth'])).toEqual([]);
    expect(styleGroupsOf(['chat'])).toEqual(['chat']);
    expect(styleGroupsOf(['ai-history'])).toEqual(['gen']);
    expect(styleGroupsOf(['admin'])).toEqual(['gen', 'admin']);
    expect(styleGroupsOf(['welcome-notice', 'dashboard', 'history-button', 'conversion'])).toEqual([]);
  });
});

describe('splitStyles', () => {
  it('moves a rule whose every selector needs a group’s class, and keeps the rest in order', () => {
    const { base, groups } = splitStyles('.btn{color:red}.chat{display:grid}.chat .btn{gap:8px}.card{padding:1px}.gen-card{margin:0}');
    expect(base).toBe('.btn{color:red}.card{padding:1px}');
    expect(groups.chat).toBe('.chat{display:grid}.chat .btn{gap:8px}');
    expect(groups.gen).toBe('.gen-card{margin:0}');
    expect(groups.admin).toBe('');
  });

  it('keeps a rule in the base when one of its selectors needs no group, or they need different groups', () => {
    const { base, groups } = splitStyles('.btn,.chat-x{color:red}.chat-a,.gen-b{color:blue}');
    expect(base).toBe('.btn,.chat-x{color:red}.chat-a,.gen-b{color:blue}');
    expect(Object.values(groups)).toEqual(['', '', '']);
  });

  it('reads a class inside a pseudo-class’s argument as not required: `:not(.chat-x)` matches elsewhere', () => {
    const { base, groups } = splitStyles('.card:not(.chat-x){color:red}.field:is(.gen-a,.b){color:green}.chat-a:has(.b){color:blue}');
    expect(base).toBe('.card:not(.chat-x){color:red}.field:is(.gen-a,.b){color:green}');
    expect(groups.chat).toBe('.chat-a:has(.b){color:blue}');
  });

  it('splits the rules inside @media, @container and @supports, each part keeping the condition; other at-rules stay whole', () => {
    const css = '@media (max-width:600px){.btn{width:100%}.chat-main{padding:0}.admin-list{gap:0}}@container chat-frame (max-width:768px){.chat-sidebar{display:none}}@keyframes spin{to{transform:rotate(1turn)}}';
    const { base, groups } = splitStyles(css);
    expect(base).toBe('@media (max-width:600px){.btn{width:100%}}@keyframes spin{to{transform:rotate(1turn)}}');
    expect(groups.chat).toBe('@media (max-width:600px){.chat-main{padding:0}}@container chat-frame (max-width:768px){.chat-sidebar{display:none}}');
    expect(groups.admin).toBe('@media (max-width:600px){.admin-list{gap:0}}');
  });
});
